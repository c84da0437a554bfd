package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/** A store that passes every call to another: test decorators override what they change. */
public abstract class ForwardingMetaStorage implements MetaStorage {
  protected final MetaStorage delegate;

  protected ForwardingMetaStorage(MetaStorage delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    return delegate.list(folder);
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    return delegate.read(file);
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    return delegate.open(file);
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    delegate.createExclusive(file, content);
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    return delegate.openLog(file);
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    delegate.deleteAll(files);
  }

  @Override
  public Map<String, Long> serviceRequests() {
    return delegate.serviceRequests();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}

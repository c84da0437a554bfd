package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A storage that passes every call to another, for decorators (counting, fault injection, a store
 * seen without append): a subclass overrides only what it changes. A log from {@link #openLog} is
 * the delegate's own; a decorator of appends wraps it in a {@link ForwardingAppendableLog}. Service
 * requests are the delegate's, where it counts them.
 */
public abstract class ForwardingMetaStorage implements MetaStorage, ServiceRequestCounting {
  protected final MetaStorage delegate;

  protected ForwardingMetaStorage(MetaStorage delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    return delegate.list(folder);
  }

  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
    return delegate.listFolders(folder);
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
  public boolean supportsAppend() {
    return delegate.supportsAppend();
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
  public void syncDeletes(StorageLocation folder) throws IOException {
    delegate.syncDeletes(folder);
  }

  /** The delegate's counts, or none where it does not count. */
  @Override
  public Map<String, Long> serviceRequests() {
    return ServiceRequestCounting.countsOf(delegate);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}

package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Optional;

/**
 * A store seen as one without append (like S3 or GCS), so the archiver's one-file-per-run path runs
 * on the in-memory and local stores too.
 */
public final class WithoutAppendMetaStorage implements MetaStorage {
  private final MetaStorage delegate;

  public WithoutAppendMetaStorage(MetaStorage delegate) {
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
  public Optional<AppendableLog> openLog(StorageLocation file) {
    return Optional.empty();
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    delegate.deleteAll(files);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}

package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Optional;

/**
 * A store whose listing gives archive files' lengths rounded down to whole blocks, as HDFS lists a
 * file that a writer (perhaps a killed one) still holds open: without its last, unfinished block,
 * whose synced bytes are nonetheless there to read. Reads and appends see every byte.
 */
public final class BlockLengthListingMetaStorage implements MetaStorage {
  private final MetaStorage delegate;
  private final long blockSize;

  public BlockLengthListingMetaStorage(MetaStorage delegate, long blockSize) {
    this.delegate = requireNonNull(delegate, "delegate is null");
    if (blockSize < 1) {
      throw new IllegalArgumentException("blockSize must be positive: " + blockSize);
    }
    this.blockSize = blockSize;
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    return FileIterator.of(
        delegate.list(folder).toList().stream()
            .map(
                f ->
                    f.name().startsWith(".commits_")
                        ? new FileEntry(
                            f.location(), f.length() / blockSize * blockSize, f.lastModified())
                        : f)
            .toList());
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
  public void close() throws IOException {
    delegate.close();
  }
}

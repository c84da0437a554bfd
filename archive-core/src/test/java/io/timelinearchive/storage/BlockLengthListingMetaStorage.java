package io.timelinearchive.storage;

import java.io.IOException;

/**
 * A store whose listing gives archive files' lengths rounded down to whole blocks, as HDFS lists a
 * file that a writer (perhaps a killed one) still holds open: without its last, unfinished block,
 * whose synced bytes are nonetheless there to read. Reads and appends see every byte.
 */
public final class BlockLengthListingMetaStorage extends ForwardingMetaStorage {
  private final long blockSize;

  public BlockLengthListingMetaStorage(MetaStorage delegate, long blockSize) {
    super(delegate);
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
}

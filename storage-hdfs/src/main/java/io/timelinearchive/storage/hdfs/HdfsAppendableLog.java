package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.AbstractAppendableLog;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream.SyncFlag;

/**
 * A file opened with {@code FileSystem.append} (or created), holding the writer's lease until
 * closed.
 */
final class HdfsAppendableLog extends AbstractAppendableLog {
  private final Path path;
  private final FileSystem fs;
  private final FSDataOutputStream out;
  private final Runnable onClose;

  HdfsAppendableLog(
      StorageLocation location,
      Path path,
      FileSystem fs,
      FSDataOutputStream out,
      long length,
      Runnable onClose) {
    super(location, length);
    this.path = requireNonNull(path, "path is null");
    this.fs = requireNonNull(fs, "fs is null");
    this.out = requireNonNull(out, "out is null");
    this.onClose = requireNonNull(onClose, "onClose is null");
  }

  @Override
  protected void appendAt(long position, byte[] bytes) throws IOException {
    // The lease keeps other HDFS clients out, but a lease can be recovered by another client
    // (which then may append) and other Hadoop stores have no leases: a file that is not as long
    // as this log left it has been written by someone else.
    long stored;
    try {
      stored = fs.getFileStatus(path).getLen();
    } catch (IOException e) {
      throw HdfsErrors.translate(e, location());
    }
    if (stored != position) {
      throw new IOException(
          "concurrent write to "
              + location()
              + ": expected length "
              + position
              + ", found "
              + stored
              + "; not appending");
    }
    out.write(bytes);
    sync();
  }

  /**
   * hsync includes hflush (the bytes reach every DataNode of the pipeline and are visible to new
   * readers) and has the DataNodes force them to disk. On HDFS it also records the new length at
   * the NameNode, so that the next append can check it and new readers list it.
   */
  private void sync() throws IOException {
    if (out instanceof HdfsDataOutputStream hdfs) {
      hdfs.hsync(EnumSet.of(SyncFlag.UPDATE_LENGTH));
    } else {
      out.hflush();
      out.hsync();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } finally {
      onClose.run();
    }
  }
}

package io.timelinearchive.lsm;

import java.io.ByteArrayOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet file built in memory: object stores cannot append, so a history file is written whole
 * with one exclusive create once Parquet has closed it. Used once.
 */
final class ByteArrayOutputFile implements OutputFile {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final String name;

  ByteArrayOutputFile(String name) {
    this.name = name;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    if (bytes.size() > 0) {
      throw new IllegalStateException(name + " is already written");
    }
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return bytes.size();
      }

      @Override
      public void write(int b) {
        bytes.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        bytes.write(b, off, len);
      }
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return create(blockSizeHint);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return name;
  }

  /** The file's bytes, once Parquet's writer is closed. */
  byte[] toByteArray() {
    return bytes.toByteArray();
  }
}

package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet file held in memory: a history file is read whole with one request through the storage
 * SPI, then Parquet seeks in its bytes.
 */
final class ByteArrayInputFile implements InputFile {
  private final byte[] bytes;
  private final String name;

  ByteArrayInputFile(byte[] bytes, String name) {
    this.bytes = requireNonNull(bytes, "bytes is null");
    this.name = requireNonNull(name, "name is null");
  }

  @Override
  public long getLength() {
    return bytes.length;
  }

  @Override
  public SeekableInputStream newStream() {
    Positioned in = new Positioned(bytes);
    return new DelegatingSeekableInputStream(in) {
      @Override
      public long getPos() {
        return in.position();
      }

      @Override
      public void seek(long newPos) {
        in.seek(newPos);
      }
    };
  }

  @Override
  public String toString() {
    return name;
  }

  /** A byte array stream that tells and sets its position. */
  private static final class Positioned extends ByteArrayInputStream {
    Positioned(byte[] bytes) {
      super(bytes);
    }

    synchronized long position() {
      return pos;
    }

    synchronized void seek(long newPos) {
      if (newPos < 0 || newPos > count) {
        throw new IllegalArgumentException("seek to " + newPos + " outside 0.." + count);
      }
      pos = (int) newPos;
    }
  }
}

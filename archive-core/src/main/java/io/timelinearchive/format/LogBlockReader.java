package io.timelinearchive.format;

import static io.timelinearchive.format.LogBlockFormat.MAGIC;
import static io.timelinearchive.format.LogBlockFormat.MIN_BLOCK_SIZE;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Reads the blocks of one archive file from a stream, one at a time.
 *
 * <p>A block cut off by the end of the file (part of the magic, part of the size, or a size that
 * runs past the end with no later block in sight) is a truncated tail: reading stops there, {@link
 * #truncatedTail()} says so and the earlier blocks stand, as in Hudi's reader. Anything else that
 * is not a valid Avro data block where one must start is a {@link CorruptArchiveException} naming
 * the file and the byte offset. No length read from the file is used to allocate before it is
 * checked against the bytes left.
 *
 * <p>The reader does not close the stream.
 */
public final class LogBlockReader {
  // A block is read whole into memory; Hudi's archive blocks hold ten entries by default.
  private static final long MAX_BLOCK_SIZE = Integer.MAX_VALUE - 64;
  private static final int SCAN_CHUNK = 64 * 1024;

  private final InputStream in;

  /** The length the listing gave, or {@link #UNKNOWN_LENGTH}: read to the end of the stream. */
  private final long fileLength;

  private final String location;
  private long position;
  private long validLength;
  private boolean truncatedTail;
  private boolean finished;
  private final LogBlockParser parser;

  private static final long UNKNOWN_LENGTH = -1;

  /** A reader of a whole file, {@code in} at its start. */
  public LogBlockReader(InputStream in, long fileLength, String location) {
    this(in, 0, fileLength, location);
  }

  /**
   * A reader starting at {@code startOffset}, where a block must start; {@code in} is positioned
   * there. Offsets in results and errors are offsets in the file. Bytes past {@code fileLength}
   * (say, appended after the file was listed) are not read.
   */
  public LogBlockReader(InputStream in, long startOffset, long fileLength, String location) {
    this(in, startOffset, fileLength, location, true);
    if (fileLength < startOffset) {
      throw new IllegalArgumentException(
          "invalid start offset " + startOffset + " in " + location + " of length " + fileLength);
    }
  }

  private LogBlockReader(
      InputStream in, long startOffset, long fileLength, String location, boolean lengthKnown) {
    this.in = requireNonNull(in, "in is null");
    this.location = requireNonNull(location, "location is null");
    this.parser = new LogBlockParser(location);
    if (startOffset < 0) {
      throw new IllegalArgumentException("invalid start offset " + startOffset + " in " + location);
    }
    this.position = startOffset;
    this.validLength = startOffset;
    this.fileLength = lengthKnown ? fileLength : UNKNOWN_LENGTH;
  }

  /**
   * A reader from {@code startOffset} to wherever the stream ends, for a file whose listed length
   * may be short of what it holds (see {@code MetaStorage}: a file its writer left open); {@code
   * in} is positioned at the offset.
   */
  public static LogBlockReader toEndOfStream(InputStream in, long startOffset, String location) {
    return new LogBlockReader(in, startOffset, 0, location, false);
  }

  /**
   * The next valid block, or empty at the end of the file or at a truncated tail.
   *
   * @throws CorruptArchiveException if the bytes where a block must start are not a valid Avro data
   *     block
   */
  public Optional<LogBlock> next() throws IOException {
    if (finished) {
      return Optional.empty();
    }
    long start = position;
    if (left() == 0) {
      finished = true;
      return Optional.empty();
    }
    byte[] magic = new byte[MAGIC.length];
    int got = readUpTo(magic, (int) Math.min(MAGIC.length, left()));
    if (got == 0 && fileLength == UNKNOWN_LENGTH) {
      finished = true;
      return Optional.empty();
    }
    if (got < MAGIC.length) {
      if (Arrays.equals(magic, 0, got, MAGIC, 0, got)) {
        return truncated();
      }
      throw notABlock(start, magic, got);
    }
    if (!Arrays.equals(magic, MAGIC)) {
      throw notABlock(start, magic, got);
    }
    byte[] sizeField = new byte[8];
    if (readUpTo(sizeField, (int) Math.min(8, left())) < 8) {
      return truncated();
    }
    long blockSize = ByteBuffer.wrap(sizeField).getLong();
    if (blockSize < MIN_BLOCK_SIZE) {
      throw new CorruptArchiveException(
          location,
          start + MAGIC.length,
          "block size " + blockSize + " is below the smallest possible " + MIN_BLOCK_SIZE);
    }
    if (blockSize > left()) {
      long nextMagic = scanForMagic();
      if (nextMagic >= 0) {
        throw new CorruptArchiveException(
            location,
            start + MAGIC.length,
            "block size "
                + blockSize
                + " runs past the end of the file ("
                + fileLength
                + " bytes), yet another block starts at offset "
                + nextMagic);
      }
      return truncated();
    }
    if (blockSize > MAX_BLOCK_SIZE) {
      throw new CorruptArchiveException(
          location, start + MAGIC.length, "block size " + blockSize + " is too large to read");
    }
    byte[] body =
        fileLength == UNKNOWN_LENGTH ? readGrowing((int) blockSize) : readKnown(blockSize);
    if (body == null) {
      return truncated();
    }
    LogBlock block = parser.parse(start, body);
    validLength = position;
    return Optional.of(block);
  }

  /** True once reading stopped at a block cut off by the end of the file. */
  public boolean truncatedTail() {
    return truncatedTail;
  }

  /** Where the last valid block read so far ends (the start offset before any block). */
  public long validLength() {
    return validLength;
  }

  private Optional<LogBlock> truncated() {
    truncatedTail = true;
    finished = true;
    return Optional.empty();
  }

  private CorruptArchiveException notABlock(long start, byte[] bytes, int length) {
    String found = HexFormat.ofDelimiter(" ").formatHex(bytes, 0, length);
    String reason =
        start == 0
            ? "the file does not start with #HUDI# (found " + found + ")"
            : "expected a block (#HUDI#) but found " + found;
    return new CorruptArchiveException(location, start, reason);
  }

  private long left() {
    return fileLength == UNKNOWN_LENGTH ? Long.MAX_VALUE : fileLength - position;
  }

  /** The block body, or null if the stream ends first (the file is shorter than listed now). */
  private byte[] readKnown(long blockSize) throws IOException {
    byte[] body = new byte[(int) blockSize];
    return readUpTo(body, body.length) < body.length ? null : body;
  }

  /**
   * The block body read in growing steps, so that a size field no bytes back cannot make the reader
   * allocate it; null if the stream ends first.
   *
   * @throws CorruptArchiveException if the stream ends first and another block starts in what was
   *     read: the size field is wrong, not the tail torn
   */
  private byte[] readGrowing(int blockSize) throws IOException {
    long bodyStart = position;
    byte[] body = new byte[Math.min(blockSize, SCAN_CHUNK)];
    int filled = 0;
    while (filled < blockSize) {
      if (filled == body.length) {
        body = Arrays.copyOf(body, (int) Math.min(blockSize, 2L * body.length));
      }
      int n = readUpTo(body, filled, body.length - filled);
      if (n == 0) {
        for (int i = 0; i + MAGIC.length <= filled; i++) {
          if (Arrays.equals(body, i, i + MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new CorruptArchiveException(
                location,
                bodyStart - 8,
                "block size "
                    + blockSize
                    + " runs past the end of the file, yet another block starts at offset "
                    + (bodyStart + i));
          }
        }
        return null;
      }
      filled += n;
    }
    return body;
  }

  /** Reads up to {@code length} bytes; fewer only at the end of the stream. */
  private int readUpTo(byte[] buffer, int length) throws IOException {
    return readUpTo(buffer, 0, length);
  }

  /**
   * Reads the rest of the file looking for a magic: a size running past the end is a truncated tail
   * only if no later block starts. Returns the magic's offset, or -1.
   */
  private long scanForMagic() throws IOException {
    byte[] buffer = new byte[SCAN_CHUNK + MAGIC.length];
    int carried = 0;
    long bufferStart = position;
    while (position < fileLength) {
      int n = readUpTo(buffer, carried, (int) Math.min(SCAN_CHUNK, fileLength - position));
      if (n == 0) {
        break;
      }
      int filled = carried + n;
      for (int i = 0; i + MAGIC.length <= filled; i++) {
        if (Arrays.equals(buffer, i, i + MAGIC.length, MAGIC, 0, MAGIC.length)) {
          return bufferStart + i;
        }
      }
      carried = Math.min(MAGIC.length - 1, filled);
      System.arraycopy(buffer, filled - carried, buffer, 0, carried);
      bufferStart += filled - carried;
    }
    return -1;
  }

  private int readUpTo(byte[] buffer, int offset, int length) throws IOException {
    int total = 0;
    while (total < length) {
      int n = in.read(buffer, offset + total, length - total);
      if (n < 0) {
        break;
      }
      total += n;
    }
    position += total;
    return total;
  }
}

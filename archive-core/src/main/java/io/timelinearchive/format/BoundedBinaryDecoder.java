package io.timelinearchive.format;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * Avro binary decoding of one record held in memory that checks every length and item count against
 * the bytes left before allocating. Avro's own decoder allocates what a length claims (up to 2 GiB)
 * before finding out the bytes are not there, which a corrupt archive must not cause.
 *
 * <p>Item counts are bounded by the bytes left, which holds for every schema whose items take at
 * least one byte (all of Hudi's do; an array of nulls would not).
 */
final class BoundedBinaryDecoder extends Decoder {
  private final byte[] buf;
  private final int limit;
  private int pos;

  BoundedBinaryDecoder(byte[] buf, int offset, int length) {
    this.buf = buf;
    this.pos = offset;
    this.limit = offset + length;
  }

  boolean isEnd() {
    return pos == limit;
  }

  int remaining() {
    return limit - pos;
  }

  @Override
  public void readNull() {}

  @Override
  public boolean readBoolean() throws IOException {
    int b = nextByte();
    if (b == 0) {
      return false;
    }
    if (b == 1) {
      return true;
    }
    throw new IOException("invalid boolean byte " + b);
  }

  @Override
  public int readInt() throws IOException {
    long n = readVarint(5);
    if (n > 0xFFFFFFFFL) {
      throw new IOException("invalid int encoding");
    }
    int raw = (int) n;
    return (raw >>> 1) ^ -(raw & 1);
  }

  @Override
  public long readLong() throws IOException {
    long n = readVarint(10);
    return (n >>> 1) ^ -(n & 1);
  }

  @Override
  public float readFloat() throws IOException {
    return Float.intBitsToFloat(littleEndian(4));
  }

  @Override
  public double readDouble() throws IOException {
    long low = littleEndian(4) & 0xFFFFFFFFL;
    long high = littleEndian(4) & 0xFFFFFFFFL;
    return Double.longBitsToDouble((high << 32) | low);
  }

  @Override
  public Utf8 readString(Utf8 old) throws IOException {
    int length = readLength();
    Utf8 result = old != null ? old : new Utf8();
    result.setByteLength(length);
    System.arraycopy(buf, pos, result.getBytes(), 0, length);
    pos += length;
    return result;
  }

  @Override
  public String readString() throws IOException {
    int length = readLength();
    String result = new String(buf, pos, length, StandardCharsets.UTF_8);
    pos += length;
    return result;
  }

  @Override
  public void skipString() throws IOException {
    int length = readLength();
    pos += length;
  }

  @Override
  public ByteBuffer readBytes(ByteBuffer old) throws IOException {
    int length = readLength();
    ByteBuffer result;
    if (old != null && length <= old.capacity()) {
      result = old;
      result.clear();
    } else {
      result = ByteBuffer.allocate(length);
    }
    result.put(buf, pos, length);
    result.flip();
    pos += length;
    return result;
  }

  @Override
  public void skipBytes() throws IOException {
    int length = readLength();
    pos += length;
  }

  @Override
  public void readFixed(byte[] bytes, int start, int length) throws IOException {
    require(length);
    System.arraycopy(buf, pos, bytes, start, length);
    pos += length;
  }

  @Override
  public void skipFixed(int length) throws IOException {
    require(length);
    pos += length;
  }

  @Override
  public int readEnum() throws IOException {
    return readInt();
  }

  @Override
  public long readArrayStart() throws IOException {
    return readItemCount();
  }

  @Override
  public long arrayNext() throws IOException {
    return readItemCount();
  }

  @Override
  public long skipArray() throws IOException {
    return skipItems();
  }

  @Override
  public long readMapStart() throws IOException {
    return readItemCount();
  }

  @Override
  public long mapNext() throws IOException {
    return readItemCount();
  }

  @Override
  public long skipMap() throws IOException {
    return skipItems();
  }

  @Override
  public int readIndex() throws IOException {
    return readInt();
  }

  /** A block's item count; a negative count is followed by the block's size in bytes. */
  private long readItemCount() throws IOException {
    long count = readLong();
    if (count < 0) {
      if (count == Long.MIN_VALUE) {
        throw new IOException("invalid item count");
      }
      count = -count;
      readBlockByteSize();
    }
    if (count > remaining()) {
      throw new EOFException(
          "block of " + count + " items but only " + remaining() + " bytes are left");
    }
    return count;
  }

  /** Skips blocks that carry their byte size; returns the item count of the next other block. */
  private long skipItems() throws IOException {
    long count = readLong();
    while (count < 0) {
      int size = readBlockByteSize();
      pos += size;
      count = readLong();
    }
    if (count > remaining()) {
      throw new EOFException(
          "block of " + count + " items but only " + remaining() + " bytes are left");
    }
    return count;
  }

  private int readBlockByteSize() throws IOException {
    long size = readLong();
    if (size < 0 || size > remaining()) {
      throw new EOFException(
          "block byte size " + size + " but only " + remaining() + " bytes are left");
    }
    return (int) size;
  }

  private int readLength() throws IOException {
    long length = readLong();
    if (length < 0) {
      throw new IOException("negative length " + length);
    }
    if (length > remaining()) {
      throw new EOFException("length " + length + " but only " + remaining() + " bytes are left");
    }
    return (int) length;
  }

  private long readVarint(int maxBytes) throws IOException {
    long result = 0;
    for (int i = 0; i < maxBytes; i++) {
      int b = nextByte();
      result |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IOException("varint longer than " + maxBytes + " bytes");
  }

  private int littleEndian(int bytes) throws IOException {
    require(bytes);
    int result = 0;
    for (int i = 0; i < bytes; i++) {
      result |= (buf[pos + i] & 0xFF) << (8 * i);
    }
    pos += bytes;
    return result;
  }

  private int nextByte() throws IOException {
    if (pos >= limit) {
      throw new EOFException("record ends early");
    }
    return buf[pos++] & 0xFF;
  }

  private void require(int length) throws IOException {
    if (length < 0 || length > remaining()) {
      throw new EOFException("need " + length + " bytes but only " + remaining() + " are left");
    }
  }
}

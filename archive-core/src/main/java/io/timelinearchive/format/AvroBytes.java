package io.timelinearchive.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growing byte array written in Avro's binary encoding, for entries encoded as they are read
 * rather than built as records first. A map or an array is written as Avro's writers write it, one
 * block of all its items then the end marker; its count precedes the items but is known only after
 * them, so it is inserted afterwards ({@link #endBlock}). Not thread-safe.
 */
final class AvroBytes {
  private byte[] bytes;
  private int size;

  AvroBytes(int capacity) {
    bytes = new byte[Math.max(16, capacity)];
  }

  int size() {
    return size;
  }

  void reset() {
    size = 0;
  }

  /** The array written so far: its first {@link #size()} bytes; valid until the next write. */
  byte[] bytes() {
    return bytes;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  /** A union's branch, or an enum's symbol. */
  void writeIndex(int index) {
    writeLong(index);
  }

  /** Avro's int and long: zig-zag, then 7 bits a byte, least significant first. */
  void writeLong(long value) {
    ensure(10);
    long n = (value << 1) ^ (value >> 63);
    while ((n & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((n & 0x7F) | 0x80);
      n >>>= 7;
    }
    bytes[size++] = (byte) n;
  }

  void writeString(String value) {
    // ASCII, which nearly every metadata string is, encodes char for char without a copy.
    int length = value.length();
    int at = size + 5;
    ensure(10 + length);
    int i = 0;
    while (i < length) {
      char c = value.charAt(i);
      if (c >= 0x80) {
        break;
      }
      bytes[at + i++] = (byte) c;
    }
    if (i < length) {
      writeBytes(value.getBytes(StandardCharsets.UTF_8));
      return;
    }
    int start = size;
    writeLong(length);
    int header = size - start;
    if (header < 5) {
      System.arraycopy(bytes, at, bytes, size, length);
    }
    size += length;
  }

  /** Avro's bytes and string: the length, then the bytes. */
  void writeBytes(byte[] value) {
    writeLong(value.length);
    writeRaw(value, 0, value.length);
  }

  /** Bytes already in Avro's encoding. */
  void writeRaw(byte[] value, int offset, int length) {
    ensure(length);
    System.arraycopy(value, offset, bytes, size, length);
    size += length;
  }

  void writeRaw(AvroBytes other) {
    writeRaw(other.bytes, 0, other.size);
  }

  /**
   * Ends a map or an array whose items were written from {@code start} on: puts their count before
   * them, as one block, and the end marker after; an empty one is the end marker alone.
   */
  void endBlock(int start, long count) {
    if (count > 0) {
      int header = encodedSize(count);
      ensure(header);
      System.arraycopy(bytes, start, bytes, start + header, size - start);
      int end = size + header;
      size = start;
      writeLong(count);
      size = end;
    }
    writeLong(0);
  }

  private static int encodedSize(long value) {
    long n = (value << 1) ^ (value >> 63);
    int length = 1;
    while ((n & ~0x7FL) != 0) {
      n >>>= 7;
      length++;
    }
    return length;
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }
}

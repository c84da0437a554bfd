package io.timelinearchive.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.DataFormatException;

/**
 * A content as the bytes it shares with a reference content and the bytes it does not: a program of
 * operations, each a literal run (its length, then its bytes) followed by a copy from the reference
 * (its length, then, if not zero, where it starts, as the distance from where the copy would start
 * had the literal replaced as many bytes of the reference: zero when it did); the last operation,
 * and only it, copies nothing. Numbers are written as Avro writes them (zig-zag varints). The
 * program's literals are what a compressor then has left to do.
 *
 * <p>Consecutive instant files of a table (two commits, two cleans) are mostly the same bytes in
 * the same order, apart from times, names and counts; long shared runs are found from a sparse
 * index of the reference and extended byte by byte in both directions, so the cost is a scan of the
 * content, not a compressor's search over both.
 */
final class ContentDelta {
  /** Shorter shared runs are left in the literals, where the compressor finds them cheaper. */
  static final int MIN_COPY = 12;

  /** Every STEP-th place of the reference is indexed; a shared run longer than this is found. */
  private static final int STEP = 16;

  /**
   * How long a literal grows before the reference is searched: a difference rewritten in place is
   * shorter, and the reference resumes where it left off without one.
   */
  private static final int RESYNC = 48;

  private static final int[] SHIFTS = {0, 1, -1, 2, -2};

  /** The most bytes skipped at once in a long literal; shared runs longer than this are found. */
  private static final int MAX_SKIP = 7;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ContentDelta() {}

  /** The program that makes {@code content} from {@code reference} (which may be empty). */
  static AvroBytes program(byte[] content, byte[] reference) {
    int n = content.length;
    AvroBytes program = new AvroBytes(16 + (reference.length == 0 ? n : n / 8));
    Index index = null; // built when first needed: contents that differ in place never need it
    int literal = 0; // where the pending literal starts
    int cursor = 0; // in the reference, where the last copy ended
    int i = 0;
    while (i + Long.BYTES <= n && reference.length >= Long.BYTES) {
      long key = (long) LONGS.get(content, i);
      // First where the reference would go on had the literal replaced as many of its bytes (a
      // time or a count rewritten in place, the most common difference), or a byte or two either
      // side (a count that gained or lost a digit); a longer literal searches the reference.
      int expected = cursor + (i - literal);
      int gap = i - literal;
      int at;
      if (gap < RESYNC) {
        at = nearby(reference, key, expected);
      } else {
        if (index == null) {
          index = new Index(reference);
        }
        at = index.nearest(reference, key, expected);
      }
      if (at < 0) {
        // Deep in a stretch the reference does not hold, look ever more sparsely (the shared run
        // found next is extended back over what was skipped).
        i += gap < RESYNC ? 1 : 1 + Math.min(MAX_SKIP, (gap - RESYNC) >> 5);
        continue;
      }
      int start = i;
      int from = at;
      while (start > literal && from > 0 && content[start - 1] == reference[from - 1]) {
        start--;
        from--;
      }
      int shared = Arrays.mismatch(content, i, n, reference, at, reference.length);
      int end = shared < 0 ? n : i + shared;
      if (end - start < MIN_COPY) {
        i++;
        continue;
      }
      writeOperation(
          program, content, literal, start, from - (cursor + start - literal), end - start);
      cursor = from + end - start;
      literal = i = end;
    }
    writeOperation(program, content, literal, n, 0, 0);
    return program;
  }

  /**
   * {@code expected}, or a place up to two bytes from it, if the reference holds {@code key} there.
   */
  private static int nearby(byte[] reference, long key, int expected) {
    byte first = (byte) key;
    for (int shift : SHIFTS) {
      int at = expected + shift;
      if (at >= 0
          && at + Long.BYTES <= reference.length
          && reference[at] == first
          && (long) LONGS.get(reference, at) == key) {
        return at;
      }
    }
    return -1;
  }

  private static void writeOperation(
      AvroBytes program, byte[] content, int literalStart, int literalEnd, int skip, int copy) {
    program.writeLong(literalEnd - literalStart);
    program.writeRaw(content, literalStart, literalEnd - literalStart);
    program.writeLong(copy);
    if (copy > 0) {
      program.writeLong(skip);
    }
  }

  /**
   * The content that {@code program} makes from {@code reference}.
   *
   * @throws DataFormatException if the program does not make exactly {@code length} bytes from that
   *     reference
   */
  static byte[] apply(byte[] program, int programLength, byte[] reference, int length)
      throws DataFormatException {
    // Grown as the program makes bytes, so that a damaged length cannot make the reader allocate
    // what the program does not fill: a content is mostly its reference and its literals.
    byte[] content = new byte[(int) Math.min(length, 2L * (programLength + reference.length))];
    Reader in = new Reader(program, programLength);
    int out = 0;
    int cursor = 0;
    while (true) {
      int literal = in.length(length - out);
      content = room(content, out + literal);
      in.copyTo(content, out, literal);
      out += literal;
      int copy = in.length(length - out);
      if (copy == 0) {
        break; // the last operation, and the only one without a copy
      }
      long from = (long) cursor + literal + in.varint();
      if (from < 0 || from + copy > reference.length) {
        throw new DataFormatException(
            "the content copies bytes "
                + from
                + " to "
                + (from + copy)
                + " of a reference of "
                + reference.length);
      }
      content = room(content, out + copy);
      System.arraycopy(reference, (int) from, content, out, copy);
      out += copy;
      cursor = (int) from + copy;
    }
    if (in.at != programLength) {
      throw new DataFormatException(
          (programLength - in.at) + " bytes follow the content's last operation");
    }
    if (out != length) {
      throw new DataFormatException("the content holds " + out + " bytes, not " + length);
    }
    return content.length == length ? content : Arrays.copyOf(content, length);
  }

  private static byte[] room(byte[] content, int needed) {
    return needed <= content.length
        ? content
        : Arrays.copyOf(
            content, (int) Math.max(needed, Math.min(Integer.MAX_VALUE - 16, 2L * content.length)));
  }

  /**
   * Every STEP-th place of a reference, grouped by the hash of the 8 bytes there, each group in
   * ascending order (a counting sort), so that of the places holding some 8 bytes the one nearest
   * to where the reference is expected to go on is found: a table's metadata repeats its field
   * names in every record, and the nearest copy keeps the two contents aligned.
   */
  private static final class Index {
    private static final int PROBES = 8;

    private final int bits;
    private final int[] start;
    private final int[] places;

    Index(byte[] reference) {
      int count = reference.length >= Long.BYTES ? (reference.length - Long.BYTES) / STEP + 1 : 0;
      bits = Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, count)));
      start = new int[(1 << bits) + 1];
      places = new int[count];
      int[] hashes = new int[count];
      for (int k = 0; k < count; k++) {
        hashes[k] = hash((long) LONGS.get(reference, k * STEP), bits);
        start[hashes[k] + 1]++;
      }
      for (int h = 0; h < 1 << bits; h++) {
        start[h + 1] += start[h];
      }
      int[] next = Arrays.copyOf(start, 1 << bits);
      for (int k = 0; k < count; k++) {
        places[next[hashes[k]]++] = k * STEP;
      }
    }

    /** The indexed place holding {@code key} nearest to {@code expected}, or -1. */
    int nearest(byte[] reference, long key, int expected) {
      int h = hash(key, bits);
      int lo = start[h];
      int hi = start[h + 1];
      int above = Arrays.binarySearch(places, lo, hi, expected);
      if (above < 0) {
        above = -above - 1;
      }
      int below = above - 1;
      for (int probe = 0; probe < PROBES && (below >= lo || above < hi); probe++) {
        boolean up =
            below < lo || (above < hi && places[above] - expected <= expected - places[below]);
        int place = up ? places[above++] : places[below--];
        if ((long) LONGS.get(reference, place) == key) {
          return place;
        }
      }
      return -1;
    }
  }

  private static int hash(long key, int bits) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - bits));
  }

  /** Reads a program, every value checked against what is left. */
  private static final class Reader {
    private final byte[] program;
    private final int end;
    private int at;

    Reader(byte[] program, int end) {
      this.program = program;
      this.end = end;
    }

    long varint() throws DataFormatException {
      long n = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= end) {
          throw new DataFormatException("the content's program ends inside a number");
        }
        byte b = program[at++];
        n |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return (n >>> 1) ^ -(n & 1);
        }
      }
      throw new DataFormatException("the content's program holds a number of over 64 bits");
    }

    /** A length of at most {@code left}. */
    int length(int left) throws DataFormatException {
      long n = varint();
      if (n < 0 || n > left) {
        throw new DataFormatException(
            "the content's program asks for " + n + " bytes where " + left + " are left");
      }
      return (int) n;
    }

    void copyTo(byte[] content, int offset, int length) throws DataFormatException {
      if (length > end - at) {
        throw new DataFormatException("the content's program ends inside a literal");
      }
      System.arraycopy(program, at, content, offset, length);
      at += length;
    }
  }
}

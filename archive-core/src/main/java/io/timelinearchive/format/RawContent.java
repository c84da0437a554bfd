package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The instant file's bytes our entries carry so that {@code unarchive} restores them exactly
 * ({@link EntryFields#DEFLATED_CONTENT}). Stored as they were, they doubled the archive, since the
 * entry's detail record holds the same content converted; compressed file by file they still added
 * a quarter. Consecutive commits (or cleans) of a table differ in little more than times, names and
 * counts, so each is stored as its difference from an earlier entry of the same block, its
 * reference ({@link ContentDelta}), compressed: {@code DELTA}, then as varints how many entries
 * with content back the reference is (0: none) and the content's length, then the CRC-32C of the
 * content (4 bytes, big-endian) and a zlib stream of the program; an empty content ends after its
 * length. A program shorter than {@link #STORED_BELOW} bytes (a content its reference nearly holds)
 * is stored as it is, after {@code DELTA_STORED} instead. The reference is the nearest entry of the
 * same action and state, else one of the same action and about the same size; the reader follows
 * whichever the value names. A block is the unit every reader decodes and every merge copies whole,
 * so an entry never loses its reference; the checksum makes a damaged or misplaced copy fail loudly
 * instead of restoring wrong bytes.
 *
 * <p>Archives written before hold two older forms, still read: a zlib stream whose preset
 * dictionary is the previous entry's content of the same action and state; and, for contents longer
 * than zlib's 32 KiB window, {@code SEGMENTED}: the content's length and the segment size (ints),
 * then per segment its compressed length (int) and a zlib stream of the segment against the 32 KiB
 * of that previous content centred on the same relative place. The first byte of a zlib stream
 * names deflate in its low four bits (8), which neither {@code SEGMENTED} nor {@code DELTA} does,
 * so no form can be taken for another; a reader older than a form fails on it instead of restoring
 * wrong bytes.
 */
public final class RawContent {
  private static final int WINDOW = 32 * 1024;
  private static final byte SEGMENTED = 0x01;
  private static final byte DELTA = 0x02;
  private static final byte DELTA_STORED = 0x03;

  /** A shorter program is stored as it is. */
  private static final int STORED_BELOW = 64;

  private static final int SEGMENTED_HEADER = 1 + Integer.BYTES * 2;
  private static final String NO_PREVIOUS =
      "the compressed content needs the previous entry of its kind in the block, and there is none";

  private RawContent() {}

  /** Compresses the contents of one block's entries, given in block order. Not thread-safe. */
  public static final class BlockDeflater implements AutoCloseable {
    private final Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    private final List<TimelineInstant> instants = new ArrayList<>();
    private final List<byte[]> contents = new ArrayList<>();
    private final byte[] chunk = new byte[8192];

    /** The field's value for the entry of {@code instant}, the next in the block. */
    public ByteBuffer deflate(TimelineInstant instant, byte[] content) {
      requireNonNull(instant, "instant is null");
      requireNonNull(content, "content is null");
      int back = reference(instant, content);
      instants.add(instant);
      contents.add(content);
      AvroBytes out = new AvroBytes(32 + content.length / 16);
      out.writeRaw(new byte[] {DELTA}, 0, 1);
      out.writeLong(back);
      out.writeLong(content.length);
      if (content.length == 0) {
        return ByteBuffer.wrap(out.toByteArray());
      }
      CRC32C crc = new CRC32C();
      crc.update(content);
      int sum = (int) crc.getValue();
      out.writeRaw(
          new byte[] {(byte) (sum >>> 24), (byte) (sum >>> 16), (byte) (sum >>> 8), (byte) sum},
          0,
          4);
      byte[] reference = back == 0 ? new byte[0] : contents.get(contents.size() - 1 - back);
      AvroBytes program = ContentDelta.program(content, reference);
      if (program.size() < STORED_BELOW) {
        out.bytes()[0] = DELTA_STORED; // zlib would add more than it takes off
        out.writeRaw(program.bytes(), 0, program.size());
        return ByteBuffer.wrap(out.toByteArray());
      }
      deflater.reset();
      deflater.setInput(program.bytes(), 0, program.size());
      deflater.finish();
      while (!deflater.finished()) {
        int n = deflater.deflate(chunk);
        out.writeRaw(chunk, 0, n);
      }
      return ByteBuffer.wrap(out.toByteArray());
    }

    /**
     * How many entries back the reference of the next entry is: the nearest of its action and
     * state, else the nearest of its action of about its size (a clean's requested and inflight
     * plans are the same bytes; a commit's inflight and completed metadata share too little for the
     * search to pay).
     */
    private int reference(TimelineInstant instant, byte[] content) {
      int sameAction = 0;
      for (int i = contents.size() - 1; i >= 0; i--) {
        TimelineInstant earlier = instants.get(i);
        byte[] candidate = contents.get(i);
        if (candidate.length == 0 || earlier.action() != instant.action()) {
          continue;
        }
        if (earlier.state() == instant.state()) {
          return contents.size() - i;
        }
        if (sameAction == 0 && Math.abs(candidate.length - content.length) <= content.length / 4) {
          sameAction = contents.size() - i;
        }
      }
      return sameAction;
    }

    @Override
    public void close() {
      deflater.end();
    }
  }

  /**
   * Restores the contents of one block's entries, given in block order: an entry's content may be
   * made from an earlier one's. Not thread-safe.
   */
  public static final class BlockInflater {
    private final Map<Kind, byte[]> previous = new HashMap<>();
    private final List<byte[]> contents = new ArrayList<>();

    /**
     * The bytes of the entry of {@code instant}, the next with content in the block.
     *
     * @throws DataFormatException if they are damaged, cut short, or made from a reference that is
     *     not the one they were made from
     */
    public byte[] inflate(TimelineInstant instant, ByteBuffer deflated) throws DataFormatException {
      Kind kind = Kind.of(instant);
      byte[] dictionary = previous.get(kind);
      byte first = deflated.remaining() > 0 ? deflated.get(deflated.position()) : 0;
      byte[] content =
          first == DELTA || first == DELTA_STORED
              ? inflateDelta(deflated.duplicate())
              : first == SEGMENTED
                  ? inflateSegments(deflated.duplicate(), dictionary)
                  : RawContent.inflate(
                      deflated, dictionary, 0, dictionary == null ? 0 : dictionary.length);
      skip(instant, content);
      return content;
    }

    /** Takes {@code content} as the next entry's, for an entry read another way. */
    public void skip(TimelineInstant instant, byte[] content) {
      previous.put(Kind.of(instant), requireNonNull(content, "content is null"));
      contents.add(content);
    }

    private byte[] inflateDelta(ByteBuffer in) throws DataFormatException {
      boolean stored = in.get() == DELTA_STORED;
      long back = varint(in);
      long length = varint(in);
      if (back < 0 || back > contents.size()) {
        throw new DataFormatException(
            "the content refers to the entry "
                + back
                + " back, where the block holds "
                + contents.size()
                + " before it");
      }
      if (length < 0 || length > Integer.MAX_VALUE - 16) {
        throw new DataFormatException("the content has a bad length: " + length);
      }
      if (length == 0) {
        if (in.hasRemaining()) {
          throw new DataFormatException(in.remaining() + " bytes follow an empty content");
        }
        return new byte[0];
      }
      if (in.remaining() < Integer.BYTES) {
        throw new DataFormatException("the compressed content ends inside its checksum");
      }
      int sum = in.getInt();
      byte[] reference = back == 0 ? new byte[0] : contents.get(contents.size() - (int) back);
      byte[] program;
      if (stored) {
        program = new byte[in.remaining()];
        in.get(program);
      } else {
        program = RawContent.inflate(in, null, 0, 0);
      }
      byte[] content = ContentDelta.apply(program, program.length, reference, (int) length);
      CRC32C crc = new CRC32C();
      crc.update(content);
      if ((int) crc.getValue() != sum) {
        throw new DataFormatException(
            "the restored content does not match its checksum (a damaged entry, or one taken out"
                + " of its block)");
      }
      return content;
    }

    private static long varint(ByteBuffer in) throws DataFormatException {
      long n = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (!in.hasRemaining()) {
          throw new DataFormatException("the compressed content ends inside its header");
        }
        byte b = in.get();
        n |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return (n >>> 1) ^ -(n & 1);
        }
      }
      throw new DataFormatException("the compressed content's header holds a bad number");
    }

    private static byte[] inflateSegments(ByteBuffer in, byte[] dictionary)
        throws DataFormatException {
      if (in.remaining() < SEGMENTED_HEADER) {
        throw new DataFormatException("the segmented content ends inside its header");
      }
      in.get();
      int length = in.getInt();
      int segment = in.getInt();
      if (length < 0 || segment <= 0) {
        throw new DataFormatException(
            "the segmented content has a bad header: length " + length + ", segment " + segment);
      }
      if (dictionary == null || dictionary.length <= WINDOW) {
        throw new DataFormatException(NO_PREVIOUS);
      }
      byte[] content = new byte[length];
      for (int at = 0; at < length; at += segment) {
        if (in.remaining() < Integer.BYTES) {
          throw new DataFormatException("the compressed content ends before its end");
        }
        int size = in.getInt();
        if (size < 0 || size > in.remaining()) {
          throw new DataFormatException("the compressed content ends before its end");
        }
        ByteBuffer part = in.slice().limit(size);
        in.position(in.position() + size);
        byte[] restored =
            RawContent.inflate(
                part, dictionary, windowStart(at, segment, length, dictionary.length), WINDOW);
        int expected = Math.min(segment, length - at);
        if (restored.length != expected) {
          throw new DataFormatException(
              "a segment of the compressed content holds "
                  + restored.length
                  + " bytes, not "
                  + expected);
        }
        System.arraycopy(restored, 0, content, at, restored.length);
      }
      if (in.hasRemaining()) {
        throw new DataFormatException(in.remaining() + " bytes follow the compressed content");
      }
      return content;
    }
  }

  /**
   * The instant file's bytes an entry record carries in {@link EntryFields#RAW_CONTENT}, as ours
   * were stored before they were compressed.
   */
  static Optional<byte[]> uncompressed(org.apache.avro.generic.GenericRecord entry) {
    if (EntryFields.get(entry, EntryFields.RAW_CONTENT) instanceof ByteBuffer raw) {
      byte[] bytes = new byte[raw.remaining()];
      raw.duplicate().get(bytes);
      return Optional.of(bytes);
    }
    return Optional.empty();
  }

  /**
   * Where the dictionary of the segment at {@code at} starts in the previous content (longer than a
   * window): the window centred on the same relative place, inside the previous content.
   */
  private static int windowStart(int at, int segment, int length, int previousLength) {
    long place = (long) at * previousLength / length;
    long start = place - (WINDOW - segment) / 2;
    return (int) Math.max(0, Math.min(previousLength - WINDOW, start));
  }

  /**
   * The bytes one zlib stream {@code deflated} holds, compressed against the given part of {@code
   * dictionary} if it asks for one.
   *
   * @throws DataFormatException if they are not a whole, undamaged zlib stream, or its dictionary
   *     is not that part of {@code dictionary}
   */
  private static byte[] inflate(
      ByteBuffer deflated, byte[] dictionary, int dictionaryOffset, int dictionaryLength)
      throws DataFormatException {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(deflated.duplicate());
      ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.remaining() * 4);
      byte[] chunk = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(chunk);
        if (n == 0 && inflater.needsDictionary()) {
          if (dictionary == null || dictionaryLength == 0) {
            throw new DataFormatException(NO_PREVIOUS);
          }
          try {
            inflater.setDictionary(dictionary, dictionaryOffset, dictionaryLength);
          } catch (IllegalArgumentException e) {
            throw new DataFormatException(
                "the compressed content was not compressed against the previous entry of its"
                    + " kind in the block");
          }
          dictionary = null;
          continue;
        }
        if (n == 0 && !inflater.finished() && inflater.needsInput()) {
          throw new DataFormatException("the compressed content ends before its end");
        }
        out.write(chunk, 0, n);
      }
      if (inflater.getRemaining() > 0) {
        throw new DataFormatException(
            inflater.getRemaining() + " bytes follow the compressed content");
      }
      return out.toByteArray();
    } finally {
      inflater.end();
    }
  }

  /** Entries whose files look alike: one action in one state. */
  private record Kind(Action action, State state) {
    static Kind of(TimelineInstant instant) {
      return new Kind(instant.action(), instant.state());
    }
  }
}

package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The instant file's bytes our entries carry so that {@code unarchive} restores them exactly
 * ({@link EntryFields#DEFLATED_CONTENT}). Stored as they were, they doubled the archive, since the
 * entry's detail record holds the same content converted; compressed file by file they still added
 * a quarter. Each is therefore a zlib stream whose preset dictionary is the content of the previous
 * entry of the same action and state in the same block: consecutive commits (or cleans) of a table
 * differ in little more than times and names, so each costs a small fraction of its size. A block
 * is the unit every reader decodes and every merge copies whole, so an entry never loses its
 * dictionary; the first of its kind in a block has none. The zlib checksums (of the dictionary and
 * of the content) make a damaged or misplaced copy fail loudly instead of restoring wrong bytes.
 *
 * <p>A zlib dictionary is at most its 32 KiB window, so a content longer than that (a commit of
 * many write stats, or a wide table's schema) is cut into {@link #SEGMENT}-byte segments, each its
 * own zlib stream whose dictionary is the window of the previous content at the same relative
 * place, where consecutive files hold what this segment holds: {@code SEGMENTED}, the content's
 * length and the segment size (ints), then each segment's compressed length (int) and bytes. The
 * first byte of a zlib stream names deflate in its low four bits, which {@code SEGMENTED} does not,
 * so the two forms cannot be taken for each other, and a reader older than the segments fails on
 * them instead of restoring wrong bytes.
 */
public final class RawContent {
  private static final int LEVEL = Deflater.BEST_SPEED;
  private static final int WINDOW = 32 * 1024;

  /** Half a window: the other half lets the previous content drift by a quarter either way. */
  static final int SEGMENT = WINDOW / 2;

  private static final byte SEGMENTED = 0x01;
  private static final int HEADER = 1 + Integer.BYTES * 2;
  private static final String NO_PREVIOUS =
      "the compressed content needs the previous entry of its kind in the block, and there is none";

  private RawContent() {}

  /** Compresses the contents of one block's entries, given in block order. Not thread-safe. */
  public static final class BlockDeflater implements AutoCloseable {
    private final Deflater deflater = new Deflater(LEVEL);
    private final Map<Kind, byte[]> previous = new HashMap<>();
    private final byte[] chunk = new byte[8192];

    /** The field's value for the entry of {@code instant}, the next in the block. */
    public ByteBuffer deflate(TimelineInstant instant, byte[] content) {
      requireNonNull(content, "content is null");
      byte[] dictionary = previous.put(Kind.of(instant), content);
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, content.length / 8));
      if (dictionary == null || dictionary.length <= WINDOW || content.length <= WINDOW) {
        deflate(
            content,
            0,
            content.length,
            dictionary,
            0,
            dictionary == null ? 0 : dictionary.length,
            out);
        return ByteBuffer.wrap(out.toByteArray());
      }
      ByteBuffer header = ByteBuffer.allocate(HEADER);
      header.put(SEGMENTED).putInt(content.length).putInt(SEGMENT);
      out.write(header.array(), 0, HEADER);
      ByteArrayOutputStream segment = new ByteArrayOutputStream(SEGMENT / 4);
      for (int at = 0; at < content.length; at += SEGMENT) {
        int window = windowStart(at, content.length, dictionary.length);
        segment.reset();
        deflate(
            content,
            at,
            Math.min(SEGMENT, content.length - at),
            dictionary,
            window,
            WINDOW,
            segment);
        out.write(
            ByteBuffer.allocate(Integer.BYTES).putInt(segment.size()).array(), 0, Integer.BYTES);
        out.writeBytes(segment.toByteArray());
      }
      return ByteBuffer.wrap(out.toByteArray());
    }

    private void deflate(
        byte[] content,
        int offset,
        int length,
        byte[] dictionary,
        int dictionaryOffset,
        int dictionaryLength,
        ByteArrayOutputStream out) {
      deflater.reset();
      if (dictionaryLength > 0) {
        deflater.setDictionary(dictionary, dictionaryOffset, dictionaryLength);
      }
      deflater.setInput(content, offset, length);
      deflater.finish();
      while (!deflater.finished()) {
        out.write(chunk, 0, deflater.deflate(chunk));
      }
    }

    @Override
    public void close() {
      deflater.end();
    }
  }

  /**
   * Restores the contents of one block's entries. An entry's dictionary is the content of the
   * previous entry of its kind in the block, so {@link #inflate} must have been given that one
   * first. Not thread-safe.
   */
  public static final class BlockInflater {
    private final Map<Kind, byte[]> previous = new HashMap<>();

    /**
     * The bytes of the entry of {@code instant}, the next of its kind in the block.
     *
     * @throws DataFormatException if they are damaged, cut short, or compressed against a
     *     dictionary that is not the previous entry of their kind
     */
    public byte[] inflate(TimelineInstant instant, ByteBuffer deflated) throws DataFormatException {
      Kind kind = Kind.of(instant);
      byte[] dictionary = previous.get(kind);
      byte[] content =
          deflated.remaining() > 0 && deflated.get(deflated.position()) == SEGMENTED
              ? inflateSegments(deflated.duplicate(), dictionary)
              : RawContent.inflate(
                  deflated, dictionary, 0, dictionary == null ? 0 : dictionary.length);
      previous.put(kind, content);
      return content;
    }

    private static byte[] inflateSegments(ByteBuffer in, byte[] dictionary)
        throws DataFormatException {
      if (in.remaining() < HEADER) {
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
                part, dictionary, windowStart(at, length, dictionary.length), WINDOW);
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

    /** Takes {@code content} as the latest of its kind, for an entry read another way. */
    public void skip(TimelineInstant instant, byte[] content) {
      previous.put(Kind.of(instant), requireNonNull(content, "content is null"));
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
  private static int windowStart(int at, int length, int previousLength) {
    long place = (long) at * previousLength / length;
    long start = place - (WINDOW - SEGMENT) / 2;
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

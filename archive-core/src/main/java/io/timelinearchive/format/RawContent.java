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
 */
public final class RawContent {
  private static final int LEVEL = Deflater.BEST_SPEED;

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
      deflater.reset();
      if (dictionary != null && dictionary.length > 0) {
        deflater.setDictionary(dictionary);
      }
      deflater.setInput(content);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, content.length / 8));
      while (!deflater.finished()) {
        out.write(chunk, 0, deflater.deflate(chunk));
      }
      return ByteBuffer.wrap(out.toByteArray());
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
      byte[] content = RawContent.inflate(deflated, previous.get(kind));
      previous.put(kind, content);
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
   * The bytes {@code deflated} holds, compressed against {@code dictionary} if it asks for one.
   *
   * @throws DataFormatException if they are not a whole, undamaged zlib stream, or its dictionary
   *     is not {@code dictionary}
   */
  static byte[] inflate(ByteBuffer deflated, byte[] dictionary) throws DataFormatException {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(deflated.duplicate());
      ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.remaining() * 4);
      byte[] chunk = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(chunk);
        if (n == 0 && inflater.needsDictionary()) {
          if (dictionary == null) {
            throw new DataFormatException(
                "the compressed content needs the previous entry of its kind in the block, and"
                    + " there is none");
          }
          try {
            inflater.setDictionary(dictionary);
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

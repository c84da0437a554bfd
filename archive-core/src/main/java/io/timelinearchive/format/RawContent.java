package io.timelinearchive.format;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.apache.avro.generic.GenericRecord;

/**
 * The instant file's bytes our entries carry so that {@code unarchive} restores them exactly,
 * zlib-compressed ({@link EntryFields#DEFLATED_CONTENT}): stored as they were, they doubled the
 * archive, since the entry's detail record holds the same content converted. The zlib checksum
 * makes a damaged copy fail loudly instead of restoring wrong bytes.
 */
public final class RawContent {
  private static final int LEVEL = Deflater.BEST_SPEED;

  private RawContent() {}

  /**
   * The instant file's bytes an entry record carries, compressed as ours are now or as they were
   * before ({@link EntryFields#RAW_CONTENT}); empty for entries written by Hudi.
   *
   * @throws DataFormatException if the compressed bytes are damaged
   */
  public static Optional<byte[]> of(GenericRecord entry) throws DataFormatException {
    if (EntryFields.get(entry, EntryFields.DEFLATED_CONTENT) instanceof ByteBuffer deflated) {
      return Optional.of(inflate(deflated));
    }
    if (EntryFields.get(entry, EntryFields.RAW_CONTENT) instanceof ByteBuffer raw) {
      byte[] bytes = new byte[raw.remaining()];
      raw.duplicate().get(bytes);
      return Optional.of(bytes);
    }
    return Optional.empty();
  }

  /** The compressed form of {@code content}. */
  public static ByteBuffer deflate(byte[] content) {
    Deflater deflater = new Deflater(LEVEL);
    try {
      deflater.setInput(content);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, content.length / 4));
      byte[] chunk = new byte[8192];
      while (!deflater.finished()) {
        out.write(chunk, 0, deflater.deflate(chunk));
      }
      return ByteBuffer.wrap(out.toByteArray());
    } finally {
      deflater.end();
    }
  }

  /**
   * The bytes {@code deflated} holds.
   *
   * @throws DataFormatException if they are not a whole, undamaged zlib stream
   */
  public static byte[] inflate(ByteBuffer deflated) throws DataFormatException {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(deflated.duplicate());
      ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.remaining() * 4);
      byte[] chunk = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(chunk);
        if (n == 0
            && !inflater.finished()
            && (inflater.needsInput() || inflater.needsDictionary())) {
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
}

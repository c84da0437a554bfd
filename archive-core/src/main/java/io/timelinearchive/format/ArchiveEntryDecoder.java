package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.zip.DataFormatException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Turns the records of archive blocks back into {@link ArchivedInstant}s: the instant each names,
 * and with details the whole record and the raw bytes ours carry. One decoder serves a whole read
 * of an archive: it keeps one datum reader per writer schema, since a new reader for every block
 * would resolve the writer schema against the reader's again each time (Avro caches that per
 * reader); blocks of one schema share a Schema instance ({@link LogBlockReader} parses each schema
 * once). Not thread-safe.
 */
public final class ArchiveEntryDecoder {
  private final boolean details;
  private final Optional<Predicate<String>> times;
  private final Map<Schema, GenericDatumReader<GenericRecord>> metadataReaders =
      new IdentityHashMap<>();
  private final Map<Schema, GenericDatumReader<GenericRecord>> wholeReaders =
      new IdentityHashMap<>();

  /**
   * @param details whether to decode each entry's whole record and raw bytes; without, only the
   *     metadata (time, action, state, transition time) is decoded and the rest skipped
   * @param times which instant times to decode, if not all
   */
  public ArchiveEntryDecoder(boolean details, Optional<Predicate<String>> times) {
    this.details = details;
    this.times = requireNonNull(times, "times is null");
  }

  /**
   * Decodes the entries of {@code block} whose times are wanted, in block order.
   *
   * @throws CorruptArchiveException naming the entry's offset when a record is not valid Avro or
   *     names no instant
   */
  public void decode(LogBlock block, Consumer<ArchivedInstant> found)
      throws CorruptArchiveException {
    GenericDatumReader<GenericRecord> metadata =
        metadataReaders.computeIfAbsent(
            block.schema(), s -> block.datumReader(ArchiveSchemas.ENTRY_METADATA));
    if (!details) {
      for (int i = 0; i < block.recordCount(); i++) {
        GenericRecord record = block.record(i, metadata);
        TimelineInstant instant = instantOf(block, i, record);
        if (times.isEmpty() || times.get().test(instant.time())) {
          found.accept(
              new ArchivedInstant(
                  instant, transitionOf(record), Optional.empty(), Optional.empty()));
        }
      }
      return;
    }
    GenericDatumReader<GenericRecord> whole =
        wholeReaders.computeIfAbsent(block.schema(), s -> block.datumReader(null));
    // An entry's raw bytes are compressed against the previous entry of its kind in the block, so
    // every entry up to the last wanted one is inflated, in order.
    int through = block.recordCount() - 1;
    if (times.isPresent()) {
      through = -1;
      for (int i = 0; i < block.recordCount(); i++) {
        if (times.get().test(instantOf(block, i, block.record(i, metadata)).time())) {
          through = i;
        }
      }
    }
    RawContent.BlockInflater inflater = new RawContent.BlockInflater();
    for (int i = 0; i <= through; i++) {
      GenericRecord record = block.record(i, whole);
      TimelineInstant instant = instantOf(block, i, record);
      Optional<ByteBuffer> raw;
      try {
        raw = rawContentOf(instant, record, inflater).map(ByteBuffer::wrap);
      } catch (DataFormatException e) {
        throw badEntry(block, i, "has damaged raw content: " + e.getMessage());
      }
      if (times.isEmpty() || times.get().test(instant.time())) {
        found.accept(new ArchivedInstant(instant, transitionOf(record), Optional.of(record), raw));
      }
    }
  }

  private static Optional<byte[]> rawContentOf(
      TimelineInstant instant, GenericRecord record, RawContent.BlockInflater inflater)
      throws DataFormatException {
    if (EntryFields.get(record, EntryFields.DEFLATED_CONTENT) instanceof ByteBuffer deflated) {
      return Optional.of(inflater.inflate(instant, deflated));
    }
    return RawContent.uncompressed(record);
  }

  private static Optional<String> transitionOf(GenericRecord record) {
    return Optional.ofNullable(EntryFields.get(record, EntryFields.STATE_TRANSITION_TIME))
        .map(Object::toString);
  }

  private static TimelineInstant instantOf(LogBlock block, int index, GenericRecord record)
      throws CorruptArchiveException {
    Object time = EntryFields.get(record, EntryFields.COMMIT_TIME);
    if (time == null) {
      throw badEntry(block, index, "has no " + EntryFields.COMMIT_TIME);
    }
    Object actionType = EntryFields.get(record, EntryFields.ACTION_TYPE);
    Object actionState = EntryFields.get(record, EntryFields.ACTION_STATE);
    if (actionType == null || actionState == null) {
      throw badEntry(
          block, index, "has no " + EntryFields.ACTION_TYPE + " or " + EntryFields.ACTION_STATE);
    }
    Optional<Action> action = Action.fromName(actionType.toString());
    if (action.isEmpty()) {
      throw badEntry(
          block, index, "has an unknown " + EntryFields.ACTION_TYPE + " '" + actionType + "'");
    }
    State state;
    try {
      state = State.valueOf(actionState.toString());
    } catch (IllegalArgumentException e) {
      throw badEntry(
          block, index, "has an unknown " + EntryFields.ACTION_STATE + " '" + actionState + "'");
    }
    try {
      return new TimelineInstant(time.toString(), action.get(), state);
    } catch (IllegalArgumentException e) {
      throw badEntry(block, index, "has an invalid " + EntryFields.COMMIT_TIME + " '" + time + "'");
    }
  }

  private static CorruptArchiveException badEntry(LogBlock block, int index, String what) {
    return new CorruptArchiveException(
        block.location(),
        block.recordOffset(index),
        "entry " + index + " of the block at offset " + block.offset() + " " + what);
  }
}

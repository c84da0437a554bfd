package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveSchemas;
import io.timelinearchive.format.CorruptArchiveException;
import io.timelinearchive.format.LogBlock;
import io.timelinearchive.format.LogBlockReader;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archived timeline: the entries of every archive file of a folder, read the way Hudi 0.15
 * reads them. Files are taken by version; a block cut off by the end of a file is skipped (and
 * reported in the file's summary) while a corrupt block fails the load with its file and offset;
 * entries are de-duplicated by (time, action, state), keeping the first, and sorted. While a merge
 * plan is there, the copy it says is not (yet, or any more) the one to trust is not read at all.
 */
public final class ArchivedTimeline {
  private static final Logger LOG = LoggerFactory.getLogger(ArchivedTimeline.class);
  private static final int BUFFER_SIZE = 64 * 1024;
  private static final int LOAD_ATTEMPTS = 3;

  private final StorageLocation folder;
  private final List<ArchivedInstant> instants;
  private final List<ArchiveFileSummary> files;

  private ArchivedTimeline(
      StorageLocation folder, List<ArchivedInstant> instants, List<ArchiveFileSummary> files) {
    this.folder = folder;
    this.instants = List.copyOf(instants);
    this.files = List.copyOf(files);
  }

  /**
   * Loads the archive files in {@code archiveFolder} (one listing), oldest version first.
   *
   * @throws CorruptArchiveException naming the file and byte offset of the first corrupt block
   */
  public static ArchivedTimeline load(
      MetaStorage storage, StorageLocation archiveFolder, ArchiveReadOptions options)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(archiveFolder, "archiveFolder is null");
    requireNonNull(options, "options is null");
    for (int attempt = 1; ; attempt++) {
      try {
        return loadOnce(storage, archiveFolder, options);
      } catch (NoSuchFileException e) {
        // A merge (or the history purge) removed a file between the listing and its reading; a
        // fresh listing sees the files that replaced it, or the plan saying which copy to read.
        if (attempt == LOAD_ATTEMPTS) {
          throw e;
        }
        LOG.info("{} vanished while loading the archive; listing again", e.getFile());
      }
    }
  }

  private static ArchivedTimeline loadOnce(
      MetaStorage storage, StorageLocation archiveFolder, ArchiveReadOptions options)
      throws IOException {
    List<FileEntry> listing = storage.list(archiveFolder).toList();
    Set<String> skipped = Set.of();
    if (ArchiveMergePlan.isListed(listing)) {
      Optional<ArchiveMergePlan.Read> plan = ArchiveMergePlan.read(storage, archiveFolder);
      if (plan.isPresent() && plan.get() instanceof ArchiveMergePlan.Read.Parsed parsed) {
        skipped = parsed.plan().shadowed(listing.stream().map(FileEntry::name).toList());
      } else if (plan.isPresent()) {
        // Hudi's reader ignores it too: a plan cut off while being written came before any merge.
        LOG.warn("ignoring the unreadable merge plan {}", ArchiveMergePlan.location(archiveFolder));
      }
    }
    List<FileEntry> archiveFiles = new ArrayList<>();
    for (FileEntry file : listing) {
      if (ArchiveFileName.version(file.name()).isPresent() && !skipped.contains(file.name())) {
        archiveFiles.add(file);
      }
    }
    archiveFiles.sort(
        Comparator.comparingInt((FileEntry f) -> ArchiveFileName.version(f.name()).getAsInt())
            .thenComparing(FileEntry::name));

    Map<TimelineInstant, ArchivedInstant> firstOfEach = new LinkedHashMap<>();
    List<ArchiveFileSummary> summaries = new ArrayList<>();
    DatumReaders readers = new DatumReaders();
    for (FileEntry file : archiveFiles) {
      List<ArchivedInstant> found = new ArrayList<>();
      summaries.add(read(storage, file, 0, options, readers, found));
      for (ArchivedInstant instant : found) {
        firstOfEach.putIfAbsent(instant.instant(), instant);
      }
    }
    List<ArchivedInstant> sorted = new ArrayList<>(firstOfEach.values());
    sorted.sort(Comparator.comparing(ArchivedInstant::instant, TimelineInstant.ORDER));
    return new ArchivedTimeline(archiveFolder, sorted, summaries);
  }

  /**
   * The entries (metadata only) of one archive file from {@code fromOffset}, where a block must
   * start, to its end; for recovery after a crash, to see what a partly finished run wrote. The
   * summary counts blocks and entries from {@code fromOffset}.
   *
   * @throws IllegalArgumentException if the file is not named as an archive file or the offset is
   *     outside it
   * @throws CorruptArchiveException naming the byte offset of a corrupt block
   */
  public static ArchiveFileContent readFile(MetaStorage storage, FileEntry file, long fromOffset)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(file, "file is null");
    if (ArchiveFileName.version(file.name()).isEmpty()) {
      throw new IllegalArgumentException("not an archive file name: " + file.location());
    }
    if (fromOffset < 0 || fromOffset > file.length()) {
      throw new IllegalArgumentException(
          "offset "
              + fromOffset
              + " is outside "
              + file.location()
              + " of "
              + file.length()
              + " bytes");
    }
    List<ArchivedInstant> found = new ArrayList<>();
    ArchiveFileSummary summary =
        read(
            storage,
            file,
            fromOffset,
            ArchiveReadOptions.metadataOnly(),
            new DatumReaders(),
            found);
    return new ArchiveFileContent(summary, found);
  }

  /** The loaded entries, de-duplicated and sorted by {@link TimelineInstant#ORDER}. */
  public List<ArchivedInstant> instants() {
    return instants;
  }

  /** One summary per archive file read, by version. */
  public List<ArchiveFileSummary> files() {
    return files;
  }

  public StorageLocation folder() {
    return folder;
  }

  public Timeline timeline() {
    return Timeline.of(instants.stream().map(ArchivedInstant::instant).toList());
  }

  private static ArchiveFileSummary read(
      MetaStorage storage,
      FileEntry file,
      long fromOffset,
      ArchiveReadOptions options,
      DatumReaders readers,
      List<ArchivedInstant> found)
      throws IOException {
    String location = file.location().toString();
    OptionalInt version = ArchiveFileName.version(file.name());
    int blocks = 0;
    int entries = 0;
    LogBlockReader reader;
    try (InputStream in = new BufferedInputStream(storage.open(file.location()), BUFFER_SIZE)) {
      try {
        in.skipNBytes(fromOffset);
      } catch (EOFException e) {
        EOFException shorter =
            new EOFException(location + " ends before offset " + fromOffset + " (it shrank)");
        shorter.initCause(e);
        throw shorter;
      }
      reader = new LogBlockReader(in, fromOffset, file.length(), location);
      for (Optional<LogBlock> next = reader.next(); next.isPresent(); next = reader.next()) {
        LogBlock block = next.get();
        blocks++;
        entries += block.recordCount();
        decode(location, block, options, readers, found);
      }
    }
    if (reader.truncatedTail()) {
      LOG.warn(
          "{} ends with a block cut off by the end of the file: read up to byte {} of {}",
          location,
          reader.validLength(),
          file.length());
    }
    return new ArchiveFileSummary(
        file.location(),
        version.getAsInt(),
        file.length(),
        blocks,
        entries,
        reader.validLength(),
        reader.truncatedTail());
  }

  /**
   * One datum reader per writer schema, for a whole load: a new reader for every block would
   * resolve the writer schema against the reader's again each time (Avro caches that per reader).
   * Blocks of one schema share a Schema instance (the block reader parses each schema once).
   */
  private static final class DatumReaders {
    private final Map<Schema, GenericDatumReader<GenericRecord>> metadata = new IdentityHashMap<>();
    private final Map<Schema, GenericDatumReader<GenericRecord>> whole = new IdentityHashMap<>();

    GenericDatumReader<GenericRecord> metadata(LogBlock block) {
      return metadata.computeIfAbsent(
          block.schema(), s -> block.datumReader(ArchiveSchemas.ENTRY_METADATA));
    }

    GenericDatumReader<GenericRecord> whole(LogBlock block) {
      return whole.computeIfAbsent(block.schema(), s -> block.datumReader(null));
    }
  }

  private static void decode(
      String location,
      LogBlock block,
      ArchiveReadOptions options,
      DatumReaders readers,
      List<ArchivedInstant> found)
      throws CorruptArchiveException {
    GenericDatumReader<GenericRecord> metadata = readers.metadata(block);
    GenericDatumReader<GenericRecord> whole = options.details() ? readers.whole(block) : null;
    for (int i = 0; i < block.recordCount(); i++) {
      GenericRecord record;
      if (whole == null) {
        record = block.record(i, metadata);
      } else if (options.hasRange()) {
        // Decode the cheap projection first, and the whole entry only when it is wanted.
        record = block.record(i, metadata);
        if (!options.includes(timeOf(location, block, i, record))) {
          continue;
        }
        record = block.record(i, whole);
      } else {
        record = block.record(i, whole);
      }
      TimelineInstant instant = instantOf(location, block, i, record);
      if (!options.includes(instant.time())) {
        continue;
      }
      Optional<String> transition =
          Optional.ofNullable(field(record, "stateTransitionTime")).map(Object::toString);
      Optional<GenericRecord> entry = whole == null ? Optional.empty() : Optional.of(record);
      Optional<ByteBuffer> raw =
          whole == null
              ? Optional.empty()
              : Optional.ofNullable((ByteBuffer) field(record, ArchiveSchemas.RAW_CONTENT_FIELD));
      found.add(new ArchivedInstant(instant, transition, entry, raw));
    }
  }

  private static String timeOf(String location, LogBlock block, int index, GenericRecord record)
      throws CorruptArchiveException {
    Object time = field(record, "commitTime");
    if (time == null) {
      throw badEntry(location, block, index, "has no commitTime");
    }
    return time.toString();
  }

  private static TimelineInstant instantOf(
      String location, LogBlock block, int index, GenericRecord record)
      throws CorruptArchiveException {
    String time = timeOf(location, block, index, record);
    Object actionType = field(record, "actionType");
    Object actionState = field(record, "actionState");
    if (actionType == null || actionState == null) {
      throw badEntry(location, block, index, "has no actionType or actionState");
    }
    Optional<Action> action = Action.fromName(actionType.toString());
    if (action.isEmpty()) {
      throw badEntry(location, block, index, "has an unknown actionType '" + actionType + "'");
    }
    State state;
    try {
      state = State.valueOf(actionState.toString());
    } catch (IllegalArgumentException e) {
      throw badEntry(location, block, index, "has an unknown actionState '" + actionState + "'");
    }
    try {
      return new TimelineInstant(time, action.get(), state);
    } catch (IllegalArgumentException e) {
      throw badEntry(location, block, index, "has an invalid commitTime '" + time + "'");
    }
  }

  private static CorruptArchiveException badEntry(
      String location, LogBlock block, int index, String what) {
    return new CorruptArchiveException(
        location,
        block.recordOffset(index),
        "entry " + index + " of the block at offset " + block.offset() + " " + what);
  }

  private static Object field(GenericRecord record, String name) {
    Schema.Field field = record.getSchema().getField(name);
    return field == null ? null : record.get(field.pos());
  }
}

package io.timelinearchive.archive.read;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.format.ArchiveEntryDecoder;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveMergePlan;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.format.LogBlock;
import io.timelinearchive.format.LogBlockReader;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Timeline;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
   * @param storage the table's storage
   * @param archiveFolder the table's archive folder, usually {@code .hoodie/archived}
   * @param options which instants to load, and whether with their details
   * @return the archived timeline; empty if the folder holds no archive file
   * @throws IOException if the storage fails
   * @throws io.timelinearchive.format.CorruptArchiveException naming the file and byte offset of
   *     the first corrupt block
   */
  public static ArchivedTimeline load(
      MetaStorage storage, StorageLocation archiveFolder, ArchiveReadOptions options)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(archiveFolder, "archiveFolder is null");
    requireNonNull(options, "options is null");
    for (int attempt = 1; ; attempt++) {
      try {
        return loadOnce(storage, ArchiveFolder.list(storage, archiveFolder), options);
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
      MetaStorage storage, ArchiveFolder folder, ArchiveReadOptions options) throws IOException {
    ArchiveFolder trusted = folder.without(shadowedByMergePlan(storage, folder));
    Map<TimelineInstant, ArchivedInstant> firstOfEach = new LinkedHashMap<>();
    List<ArchiveFileSummary> summaries = new ArrayList<>();
    ArchiveEntryDecoder decoder = decoder(options);
    for (FileEntry file : trusted.archiveFiles()) {
      try (InputStream in = open(storage, file.location(), 0)) {
        summaries.add(
            read(
                new LogBlockReader(in, file.length(), file.location().toString()),
                file,
                decoder,
                a -> firstOfEach.putIfAbsent(a.instant(), a)));
      }
    }
    List<ArchivedInstant> sorted = new ArrayList<>(firstOfEach.values());
    sorted.sort(Comparator.comparing(ArchivedInstant::instant, TimelineInstant.ORDER));
    return new ArchivedTimeline(folder.location(), sorted, summaries);
  }

  /** The files a merge plan in the folder says not to read (see {@link ArchiveMergePlan}). */
  private static Set<String> shadowedByMergePlan(MetaStorage storage, ArchiveFolder folder)
      throws IOException {
    if (!folder.mergePlanListed()) {
      return Set.of();
    }
    Optional<ArchiveMergePlan.Read> plan = ArchiveMergePlan.read(storage, folder.location());
    if (plan.isPresent() && plan.get() instanceof ArchiveMergePlan.Read.Parsed parsed) {
      return parsed.plan().shadowed(folder.archiveFiles().stream().map(FileEntry::name).toList());
    }
    if (plan.isPresent()) {
      // Hudi's reader ignores it too: a plan cut off while being written came before any merge.
      LOG.warn(
          "ignoring the unreadable merge plan {}", ArchiveMergePlan.location(folder.location()));
    }
    return Set.of();
  }

  /**
   * The entries (metadata only) of one archive file from {@code fromOffset}, where a block must
   * start, to its length as listed. The summary counts blocks and entries from {@code fromOffset}.
   *
   * @param storage the table's storage
   * @param file the archive file, as listed
   * @param fromOffset where to start reading, at a block boundary
   * @return the file's entries from there, and its summary
   * @throws IOException if the storage fails
   * @throws IllegalArgumentException if the file is not named as an archive file or the offset is
   *     outside it
   * @throws io.timelinearchive.format.CorruptArchiveException naming the byte offset of a corrupt
   *     block
   */
  public static ArchiveFileContent readFile(MetaStorage storage, FileEntry file, long fromOffset)
      throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(file, "file is null");
    requireArchiveFile(file);
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
    try (InputStream in = open(storage, file.location(), fromOffset)) {
      ArchiveFileSummary summary =
          read(
              new LogBlockReader(in, fromOffset, file.length(), file.location().toString()),
              file,
              decoder(ArchiveReadOptions.metadataOnly()),
              found::add);
      return new ArchiveFileContent(summary, found);
    }
  }

  /**
   * As {@link #readFile}, but to wherever the file ends when read rather than its listed length:
   * for a file a writer may have left open, which a listing can show short of the bytes it holds
   * (see {@link MetaStorage}).
   *
   * @param storage the table's storage
   * @param file the archive file, as listed
   * @param fromOffset where to start reading, at a block boundary
   * @return the file's entries from there to its end, and its summary
   * @throws IOException if the storage fails
   */
  public static ArchiveFileContent readFileToEnd(
      MetaStorage storage, FileEntry file, long fromOffset) throws IOException {
    requireNonNull(storage, "storage is null");
    requireNonNull(file, "file is null");
    requireArchiveFile(file);
    List<ArchivedInstant> found = new ArrayList<>();
    try (InputStream in = open(storage, file.location(), fromOffset)) {
      ArchiveFileSummary summary =
          read(
              LogBlockReader.toEndOfStream(in, fromOffset, file.location().toString()),
              file,
              decoder(ArchiveReadOptions.metadataOnly()),
              found::add);
      return new ArchiveFileContent(summary, found);
    }
  }

  /**
   * The loaded entries, de-duplicated and sorted by {@link TimelineInstant#ORDER}.
   *
   * @return the entries, each instant once
   */
  public List<ArchivedInstant> instants() {
    return instants;
  }

  /**
   * One summary per archive file read, by version.
   *
   * @return the summaries, oldest version first
   */
  public List<ArchiveFileSummary> files() {
    return files;
  }

  /**
   * @return the archive folder this was loaded from
   */
  public StorageLocation folder() {
    return folder;
  }

  /**
   * @return the loaded instants as a timeline, for the same queries as the active one
   */
  public Timeline timeline() {
    return Timeline.of(instants.stream().map(ArchivedInstant::instant).toList());
  }

  private static void requireArchiveFile(FileEntry file) {
    if (ArchiveFileName.version(file.name()).isEmpty()) {
      throw new IllegalArgumentException("not an archive file name: " + file.location());
    }
  }

  private static ArchiveEntryDecoder decoder(ArchiveReadOptions options) {
    return new ArchiveEntryDecoder(
        options.details(), options.hasRange() ? Optional.of(options::includes) : Optional.empty());
  }

  private static InputStream open(MetaStorage storage, StorageLocation file, long fromOffset)
      throws IOException {
    InputStream in = new BufferedInputStream(storage.open(file), BUFFER_SIZE);
    try {
      in.skipNBytes(fromOffset);
      return in;
    } catch (EOFException e) {
      in.close();
      EOFException shorter =
          new EOFException(file + " ends before offset " + fromOffset + " (it shrank)");
      shorter.initCause(e);
      throw shorter;
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  private static ArchiveFileSummary read(
      LogBlockReader reader,
      FileEntry file,
      ArchiveEntryDecoder decoder,
      java.util.function.Consumer<ArchivedInstant> found)
      throws IOException {
    int blocks = 0;
    int entries = 0;
    for (Optional<LogBlock> next = reader.next(); next.isPresent(); next = reader.next()) {
      LogBlock block = next.get();
      blocks++;
      entries += block.recordCount();
      decoder.decode(block, found);
    }
    if (reader.truncatedTail()) {
      LOG.warn(
          "{} ends with a block cut off by the end of the file: read up to byte {} of {}",
          file.location(),
          reader.validLength(),
          file.length());
    }
    return new ArchiveFileSummary(
        file.location(),
        ArchiveFolder.version(file.name()),
        file.length(),
        blocks,
        entries,
        reader.validLength(),
        reader.truncatedTail());
  }
}

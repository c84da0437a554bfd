package io.timelinearchive.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.ExclusiveCreate;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the LSM history of a Hudi 1.x table as Hudi 1.0.1's {@code LSMTimelineWriter} does,
 * through the storage SPI: a layer-0 file per archival run, then manifest N+1 and {@code
 * _version_}; then compaction of full layers into the next, and cleaning of old manifests and of
 * the files none of the kept ones lists. Every file is written whole with one exclusive create
 * (object stores cannot append), so a reader sees a file whole or not at all.
 *
 * <p>Crash safety: a step is visible to readers only when {@code _version_} (or, while it is
 * missing, the highest manifest) names a manifest listing it. A history file or a manifest a crash
 * left unlisted is never read; re-running the step deletes it and writes it anew, and a clean
 * deletes whatever is left. Nothing the current snapshot lists is ever deleted. The caller holds
 * the archive lock: one writer at a time.
 */
public final class LsmHistoryWriter {
  private static final Logger LOG = LoggerFactory.getLogger(LsmHistoryWriter.class);

  private final MetaStorage storage;
  private final StorageLocation folder;
  private final LsmSettings settings;

  public LsmHistoryWriter(
      MetaStorage storage, StorageLocation historyFolder, LsmSettings settings) {
    this.storage = requireNonNull(storage, "storage is null");
    this.folder = requireNonNull(historyFolder, "historyFolder is null");
    this.settings = requireNonNull(settings, "settings is null");
  }

  /**
   * Writes {@code rows} as the layer-0 file {@code <min>_<max>_0.parquet}, min and max the
   * requested times of the first and last row. Not yet part of the history: {@link #commit} makes
   * it so.
   *
   * @param rows the rows, sorted by requested time (string order, as Hudi names files)
   * @return the file as a manifest lists it
   * @throws IllegalArgumentException if there are no rows or they are not sorted
   * @throws FileAlreadyExistsException if the current snapshot lists a file of that name already:
   *     these instants are archived, and must not be archived twice
   * @throws IOException if the storage fails
   */
  public LsmManifest.Entry writeLayerZero(List<LsmRow> rows) throws IOException {
    return writeLayerZero(LsmSnapshot.current(storage, folder), rows);
  }

  /**
   * As {@link #writeLayerZero(List)}, against {@code current}, the snapshot the caller has just
   * read (one read of the history fewer).
   */
  public LsmManifest.Entry writeLayerZero(LsmSnapshot current, List<LsmRow> rows)
      throws IOException {
    requireNonNull(current, "current is null");
    requireNonNull(rows, "rows is null");
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("no rows to write into " + folder);
    }
    try (LayerZero file = layerZero()) {
      rows.forEach(file::add);
      return file.write(current);
    }
  }

  /** A layer-0 file to be built row by row, then written by {@link LayerZero#write}. */
  public LayerZero layerZero() {
    return new LayerZero();
  }

  /**
   * A layer-0 file being built in memory, row by row in requested-time order: each row is encoded
   * and compressed as it is added, so that a run need not hold what it read for all its instants.
   * Its name, {@code <min>_<max>_0.parquet}, is known once the last row is in.
   */
  public final class LayerZero implements AutoCloseable {
    private final LsmFileWriter.Rows rows = LsmFileWriter.start(folder + " (a layer-0 file)");
    private String first;
    private String last;

    private LayerZero() {}

    /**
     * @throws IllegalArgumentException if {@code row} was requested before the last one added
     */
    public void add(LsmRow row) {
      requireNonNull(row, "row is null");
      if (last != null && last.compareTo(row.requestedTime()) > 0) {
        throw new IllegalArgumentException(
            "rows out of order: " + row.requestedTime() + " after " + last);
      }
      rows.add(row);
      if (first == null) {
        first = row.requestedTime();
      }
      last = row.requestedTime();
    }

    public boolean isEmpty() {
      return first == null;
    }

    /** The file's name as it stands, {@code <first>_<last>_0.parquet}. */
    public String fileName() {
      return name().fileName();
    }

    private LsmFileName name() {
      if (isEmpty()) {
        throw new IllegalStateException("no rows to write into " + folder);
      }
      return new LsmFileName(first, last, 0);
    }

    /**
     * Writes the file as {@code <min>_<max>_0.parquet}, with exclusive create; not yet part of the
     * history: {@link #commit} makes it so. A file of that name that {@code current} does not list
     * is a leftover of a crashed run, replaced.
     *
     * @param current the current snapshot
     * @return the file as a manifest lists it
     * @throws IllegalStateException if no row was added
     * @throws FileAlreadyExistsException if {@code current} lists a file of that name already:
     *     these instants are archived, and must not be archived twice
     */
    public LsmManifest.Entry write(LsmSnapshot current) throws IOException {
      requireNonNull(current, "current is null");
      return writeFile(current, name(), rows.finish());
    }

    @Override
    public void close() {
      rows.close();
    }
  }

  /**
   * Makes snapshot N+1 current: writes {@code manifest_<N+1>} listing the files of {@code current}
   * less {@code removed}, then {@code added}, and replaces {@code _version_} by N+1 (delete, then
   * create: a reader that finds it missing meanwhile takes the highest manifest, the new one).
   *
   * @param current the current snapshot, N its version (0 if it has none)
   * @param removed files {@code current} lists that the new snapshot drops
   * @param added files the new snapshot lists after the others, none listed by {@code current}
   * @return the new snapshot
   * @throws IllegalArgumentException if a removed file is not listed or an added one is
   * @throws IllegalStateException if {@code current} is no longer the current snapshot
   * @throws IOException if the storage fails
   */
  public LsmSnapshot commit(
      LsmSnapshot current, List<LsmManifest.Entry> removed, List<LsmManifest.Entry> added)
      throws IOException {
    requireNonNull(current, "current is null");
    requireNonNull(removed, "removed is null");
    requireNonNull(added, "added is null");
    Set<String> listed = new HashSet<>();
    current.files().forEach(e -> listed.add(e.name().fileName()));
    Set<String> dropped = new HashSet<>();
    for (LsmManifest.Entry e : removed) {
      if (!listed.contains(e.name().fileName())) {
        throw new IllegalArgumentException(
            e.name() + " is not listed by snapshot " + current.version().orElse(0));
      }
      dropped.add(e.name().fileName());
    }
    List<LsmManifest.Entry> files = new ArrayList<>();
    for (LsmManifest.Entry e : current.files()) {
      if (!dropped.contains(e.name().fileName())) {
        files.add(e);
      }
    }
    Set<String> adding = new HashSet<>();
    for (LsmManifest.Entry e : added) {
      if (listed.contains(e.name().fileName()) || !adding.add(e.name().fileName())) {
        throw new IllegalArgumentException(
            e.name() + " is listed already by snapshot " + current.version().orElse(0));
      }
      files.add(e);
    }
    checkStillCurrent(current);

    int version = current.version().orElse(0) + 1;
    StorageLocation manifest = folder.resolve(LsmManifest.fileName(version));
    // a manifest N+1 can only be a leftover of a commit that crashed before replacing _version_:
    // while _version_ names N nobody reads it (were _version_ missing, it would be current)
    createReplacingLeftover(manifest, LsmManifest.json(files));
    replaceVersionFile(version);
    return new LsmSnapshot(
        folder, Optional.of(new LsmManifest(manifest, version, files)), /* fromVersionFile */ true);
  }

  /**
   * Compacts the history and cleans it, by Hudi 1.0.1's rules (see {@link LsmCompactionRules}):
   * layer by layer from layer 0, a layer holding at least {@code hoodie.timeline.compaction.batch
   * .size} files has its oldest merged into one file of the next layer, made current by a manifest
   * of its own; the first layer not due ends it. Then the clean: it keeps the newest manifests (3,
   * plus one per merge of this call) and deletes the older ones, those a crashed commit left above
   * the current one, and every history file no kept manifest lists. Finishes first a {@code
   * _version_} replacement a crash interrupted.
   *
   * @param current the current snapshot
   * @throws CorruptHistoryFileException naming the file if a file to merge or a manifest to keep
   *     cannot be read
   * @throws IllegalStateException if {@code current} is no longer the current snapshot
   * @throws IOException if the storage fails
   */
  public LsmCompaction compactAndClean(LsmSnapshot current) throws IOException {
    requireNonNull(current, "current is null");
    checkStillCurrent(current);
    if (!current.fromVersionFile() && current.version().isPresent()) {
      LOG.info("{} is missing: writing it anew ({})", versionFile(), current.version().getAsInt());
      replaceVersionFile(current.version().getAsInt());
    }
    LsmSnapshot snapshot = current;
    List<LsmCompaction.Merge> merges = new ArrayList<>();
    for (int layer = 0; ; layer++) {
      Optional<List<LsmManifest.Entry>> sources =
          LsmCompactionRules.candidates(snapshot.files(), layer, settings);
      if (sources.isEmpty()) {
        break;
      }
      LsmFileName target = LsmCompactionRules.compactedName(sources.get());
      byte[] merged;
      try (LsmFileWriter.Rows rows =
          LsmFileWriter.start(folder.resolve(target.fileName()).toString())) {
        for (LsmManifest.Entry source : sources.get()) {
          readRows(snapshot, source).forEach(rows::add);
        }
        merged = rows.finish();
      }
      LsmManifest.Entry written = writeFile(snapshot, target, merged);
      snapshot = commit(snapshot, sources.get(), List.of(written));
      merges.add(new LsmCompaction.Merge(sources.get(), written, snapshot.version().getAsInt()));
      LOG.info("merged {} into {} (manifest {})", sources.get(), target, snapshot.version());
    }
    return clean(snapshot, merges);
  }

  private LsmCompaction clean(LsmSnapshot snapshot, List<LsmCompaction.Merge> merges)
      throws IOException {
    int current = snapshot.version().orElse(0);
    TreeMap<Integer, StorageLocation> manifests = new TreeMap<>();
    List<StorageLocation> historyFiles = new ArrayList<>();
    FileIterator listing = storage.list(folder);
    while (listing.hasNext()) {
      FileEntry entry = listing.next();
      OptionalInt v = LsmManifest.version(entry.name());
      if (v.isPresent()) {
        manifests.put(v.getAsInt(), entry.location());
      } else if (LsmFileName.parse(entry.name()).isPresent()) {
        historyFiles.add(entry.location());
      }
    }
    List<StorageLocation> deletedManifests =
        new ArrayList<>(manifests.tailMap(current, false).values());
    List<Integer> kept =
        LsmCompactionRules.manifestsToKeep(
            List.copyOf(manifests.headMap(current, true).keySet()),
            settings.retainedManifests(),
            merges.size());
    Set<String> listed = new HashSet<>();
    snapshot.files().forEach(e -> listed.add(e.name().fileName()));
    for (int version : kept) {
      if (version != current) {
        StorageLocation file = manifests.get(version);
        LsmManifest.parse(file, version, storage.read(file))
            .files()
            .forEach(e -> listed.add(e.name().fileName()));
      }
    }
    manifests
        .headMap(current, true)
        .forEach(
            (version, file) -> {
              if (!kept.contains(version)) {
                deletedManifests.add(file);
              }
            });
    List<StorageLocation> deletedFiles =
        historyFiles.stream().filter(f -> !listed.contains(f.fileName())).toList();
    // manifests first, as Hudi does: a file is deleted only once no manifest left lists it
    if (!deletedManifests.isEmpty()) {
      storage.deleteAll(deletedManifests);
    }
    if (!deletedFiles.isEmpty()) {
      storage.deleteAll(deletedFiles);
    }
    if (!deletedManifests.isEmpty() || !deletedFiles.isEmpty()) {
      storage.syncDeletes(folder);
      LOG.info(
          "cleaned {}: {} manifest(s), {} history file(s)",
          folder,
          deletedManifests.size(),
          deletedFiles.size());
    }
    return new LsmCompaction(snapshot, merges, deletedManifests, deletedFiles);
  }

  private List<LsmRow> readRows(LsmSnapshot snapshot, LsmManifest.Entry source) throws IOException {
    StorageLocation location = folder.resolve(source.name().fileName());
    byte[] bytes;
    try {
      bytes = storage.read(location);
    } catch (NoSuchFileException e) {
      throw new CorruptHistoryFileException(
          location,
          "it is listed by "
              + snapshot.manifest().map(m -> m.location().toString()).orElse("the manifest")
              + " but does not exist",
          e);
    }
    return LsmParquetFile.read(bytes, location, true).stream().map(LsmHistoryInstant::row).toList();
  }

  /** Writes a history file the current snapshot does not list yet. */
  private LsmManifest.Entry writeFile(LsmSnapshot current, LsmFileName name, byte[] bytes)
      throws IOException {
    StorageLocation location = folder.resolve(name.fileName());
    for (LsmManifest.Entry e : current.files()) {
      if (e.name().fileName().equals(name.fileName())) {
        throw new FileAlreadyExistsException(
            location.toString(),
            null,
            "snapshot "
                + current.version().orElse(0)
                + " lists it already: its instants are archived");
      }
    }
    createReplacingLeftover(location, bytes);
    return new LsmManifest.Entry(name, bytes.length);
  }

  /**
   * Creates a file no reader reads yet; one there already is a leftover of a crashed run, deleted
   * first.
   */
  private void createReplacingLeftover(StorageLocation file, byte[] content) throws IOException {
    try {
      ExclusiveCreate.create(storage, file, content);
    } catch (FileAlreadyExistsException e) {
      LOG.info("{} is a leftover of an interrupted run: writing it anew", file);
      storage.deleteAll(List.of(file));
      ExclusiveCreate.create(storage, file, content);
    }
  }

  private void replaceVersionFile(int version) throws IOException {
    StorageLocation file = versionFile();
    storage.deleteAll(List.of(file));
    ExclusiveCreate.create(storage, file, String.valueOf(version).getBytes(UTF_8));
  }

  private StorageLocation versionFile() {
    return LsmVersionFile.location(folder);
  }

  /** Guards against a snapshot read before another writer committed. */
  private void checkStillCurrent(LsmSnapshot snapshot) throws IOException {
    // _version_ alone tells, when it is there (one request); else what a reader would take
    OptionalInt now = LsmVersionFile.read(storage, folder);
    if (now.isEmpty()) {
      now = LsmSnapshot.current(storage, folder).version();
    }
    if (!now.equals(snapshot.version())) {
      throw new IllegalStateException(
          "the history in "
              + folder
              + " is at snapshot "
              + now.orElse(0)
              + ", not "
              + snapshot.version().orElse(0)
              + " as read: another writer changed it");
    }
  }
}

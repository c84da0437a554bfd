package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.CorruptArchiveException;
import io.timelinearchive.format.LogBlock;
import io.timelinearchive.format.LogBlockReader;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges the newest small archive files into one, as Hudi 0.15's archiver does with {@code
 * hoodie.archive.merge.enable}, and finishes or undoes a merge a crash interrupted.
 *
 * <p>The steps, each durable before the next: the plan ({@code mergeArchivePlan}, exclusively); the
 * merged file, one version above every file, exclusively and in one piece; the sources; the plan.
 * The candidates are the newest consecutive files each at most the small-file limit, so the merged
 * file holds the newest instants and takes the highest version, and what is older than it stays in
 * lower versions (readers order by version). Blocks are copied byte for byte; a torn tail (a block
 * cut off by the end of a source) holds no entry and is left out.
 */
final class ArchiveMerger {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveMerger.class);

  private final MetaStorage storage;
  private final StorageLocation folder;
  private final ArchiverSettings settings;
  private final ArchiveLock lock;
  private final Clock clock;
  private final Consumer<String> warnings;

  /** What a merge did. */
  record Merge(List<String> sources, String mergedFile, long bytes, int blocks) {
    Merge {
      sources = List.copyOf(sources);
      requireNonNull(mergedFile, "mergedFile is null");
    }
  }

  ArchiveMerger(
      MetaStorage storage,
      StorageLocation archiveFolder,
      ArchiverSettings settings,
      ArchiveLock lock,
      Clock clock,
      Consumer<String> warnings) {
    this.storage = requireNonNull(storage, "storage is null");
    this.folder = requireNonNull(archiveFolder, "archiveFolder is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.lock = requireNonNull(lock, "lock is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.warnings = requireNonNull(warnings, "warnings is null");
  }

  /**
   * Finishes or undoes the merge a plan in the listing names, whatever the setting now says (both
   * copies on storage would be one too many), as Hudi's {@code
   * verifyLastMergeArchiveFilesIfNecessary} does: an unreadable plan was cut off before the merged
   * file was begun; with every source still there the merged file (whole or not) goes; with some
   * gone the merged file is whole and the rest go.
   *
   * @param listing the archive folder as listed at the start of the run
   * @return the archive folder's listing after recovery ({@code listing} itself when there was no
   *     plan)
   */
  List<FileEntry> recover(List<FileEntry> listing) throws IOException {
    if (!ArchiveMergePlan.isListed(listing)) {
      return listing;
    }
    lock.check();
    // Listed again under the lock: the first listing came before it.
    List<FileEntry> now = storage.list(folder).toList();
    Optional<ArchiveMergePlan.Read> read = ArchiveMergePlan.read(storage, folder);
    if (read.isEmpty()) {
      return now;
    }
    StorageLocation planFile = ArchiveMergePlan.location(folder);
    if (read.get() instanceof ArchiveMergePlan.Read.Unreadable unreadable) {
      warnings.accept(
          "removed the unreadable merge plan "
              + planFile
              + " ("
              + unreadable.reason()
              + "): its merge had not begun");
    } else if (read.get() instanceof ArchiveMergePlan.Read.Parsed parsed) {
      ArchiveMergePlan plan = parsed.plan();
      Set<String> present = now.stream().map(FileEntry::name).collect(Collectors.toSet());
      boolean mergedPresent = present.contains(plan.mergedFile());
      if (present.containsAll(plan.candidates())) {
        if (mergedPresent && !plan.candidates().contains(plan.mergedFile())) {
          lock.check();
          storage.deleteAll(List.of(folder.resolve(plan.mergedFile())));
        }
        warnings.accept(
            "undid an interrupted merge of "
                + plan.candidates().size()
                + " archive file(s): its sources are all there"
                + (mergedPresent ? ", its merged file " + plan.mergedFile() + " was removed" : ""));
      } else if (mergedPresent) {
        List<StorageLocation> left =
            plan.candidates().stream().filter(present::contains).map(folder::resolve).toList();
        lock.check();
        storage.deleteAll(left);
        warnings.accept(
            "finished an interrupted merge into "
                + plan.mergedFile()
                + ": "
                + left.size()
                + " source file(s) removed");
      } else {
        // Not a state a merge leaves; whatever removed these files, the plan cannot bring them
        // back, and keeping it would only hide the sources still there from readers.
        warnings.accept(
            "merge plan "
                + planFile
                + " names the merged file "
                + plan.mergedFile()
                + ", which is missing, while some of its sources are gone too; plan removed");
      }
    }
    lock.check();
    storage.deleteAll(List.of(planFile));
    return storage.list(folder).toList();
  }

  /**
   * Merges the newest small archive files when enough of them are there.
   *
   * @param listing the archive folder as listed at the start of the run (after recovery)
   * @param written what this run wrote to the folder since, which the listing does not show
   * @return what was merged, if anything
   */
  Optional<Merge> mergeIfDue(List<FileEntry> listing, List<ArchiveResult.WrittenFile> written)
      throws IOException {
    if (settings.merge().enabled().equals(Optional.of(false))) {
      return Optional.empty();
    }
    List<FileEntry> known = withWritten(listing, written);
    if (candidates(TimelineArchiver.archiveFiles(known)).size() < settings.merge().batchSize()) {
      return Optional.empty();
    }
    if (settings.merge().enabled().isEmpty() && canAppend(known)) {
      return Optional.empty();
    }
    // Listed again under the lock, so the merged file's version is above every file's.
    List<FileEntry> files = TimelineArchiver.archiveFiles(storage.list(folder).toList());
    List<FileEntry> candidates = candidates(files);
    if (candidates.size() < settings.merge().batchSize()) {
      return Optional.empty();
    }
    return merge(candidates, files);
  }

  private Optional<Merge> merge(List<FileEntry> candidates, List<FileEntry> files)
      throws IOException {
    ByteArrayOutputStream merged = new ByteArrayOutputStream();
    int blocks = 0;
    for (FileEntry file : candidates) {
      byte[] bytes;
      try {
        bytes = storage.read(file.location());
      } catch (NoSuchFileException e) {
        warnings.accept("merge skipped: " + file.location() + " disappeared");
        return Optional.empty();
      }
      LogBlockReader reader =
          new LogBlockReader(
              new ByteArrayInputStream(bytes), bytes.length, file.location().toString());
      try {
        for (Optional<LogBlock> b = reader.next(); b.isPresent(); b = reader.next()) {
          blocks++;
          lock.checkIfDue();
        }
      } catch (CorruptArchiveException e) {
        // Copying it would move the damage into the newest file; the sources stay as they are.
        warnings.accept("merge skipped: " + e.getMessage());
        return Optional.empty();
      }
      merged.write(bytes, 0, (int) reader.validLength());
    }
    int newest =
        files.stream().mapToInt(f -> ArchiveFileName.version(f.name()).getAsInt()).max().orElse(0);
    ArchiveMergePlan plan =
        new ArchiveMergePlan(
            candidates.stream().map(FileEntry::name).toList(), ArchiveFileName.of(newest + 1));
    StorageLocation mergedFile = folder.resolve(plan.mergedFile());

    lock.check();
    ExclusiveCreate.create(storage, ArchiveMergePlan.location(folder), plan.encode(folder));
    lock.check();
    try {
      ExclusiveCreate.create(storage, mergedFile, merged.toByteArray());
    } catch (FileAlreadyExistsException e) {
      // Only an archiver ignoring the lock gets here. The plan goes at once: left behind, it would
      // have the next run delete that writer's file as a partial merge.
      storage.deleteAll(List.of(ArchiveMergePlan.location(folder)));
      throw new IOException(
          "archive file " + mergedFile + " was written by someone else meanwhile; merge undone", e);
    }
    lock.check();
    storage.deleteAll(candidates.stream().map(FileEntry::location).toList());
    lock.check();
    storage.deleteAll(List.of(ArchiveMergePlan.location(folder)));
    LOG.info("merged {} archive files into {}", candidates.size(), mergedFile);
    return Optional.of(new Merge(plan.candidates(), plan.mergedFile(), merged.size(), blocks));
  }

  /**
   * The newest consecutive archive files each within the small-file limit, together within {@code
   * archive.file.max-bytes}, oldest first.
   */
  private List<FileEntry> candidates(List<FileEntry> files) {
    List<FileEntry> picked = new ArrayList<>();
    long total = 0;
    for (int i = files.size() - 1; i >= 0; i--) {
      FileEntry f = files.get(i);
      if (f.length() > settings.merge().smallFileLimitBytes()
          || total + f.length() > settings.maxArchiveFileBytes()) {
        break;
      }
      total += f.length();
      picked.add(0, f);
    }
    return picked;
  }

  /**
   * Whether the store appends, asked of the newest archive file, which exists (a store with append
   * would otherwise create the file it is asked about). One that cannot be opened for appending is
   * rolled over by the writer too, so it counts as a store without append.
   */
  private boolean canAppend(List<FileEntry> known) {
    List<FileEntry> files = TimelineArchiver.archiveFiles(known);
    StorageLocation newest = files.get(files.size() - 1).location();
    try {
      Optional<AppendableLog> log = storage.openLog(newest);
      if (log.isPresent()) {
        log.get().close();
        return true;
      }
      return false;
    } catch (IOException e) {
      return false;
    }
  }

  private List<FileEntry> withWritten(
      List<FileEntry> listing, List<ArchiveResult.WrittenFile> written) {
    List<FileEntry> known = new ArrayList<>(listing);
    Set<String> names = new HashSet<>();
    listing.forEach(f -> names.add(f.name()));
    for (ArchiveResult.WrittenFile w : written) {
      if (names.contains(w.name())) {
        known.replaceAll(
            f ->
                f.name().equals(w.name())
                    ? new FileEntry(f.location(), f.length() + w.bytesWritten(), clock.instant())
                    : f);
      } else {
        known.add(new FileEntry(folder.resolve(w.name()), w.bytesWritten(), clock.instant()));
      }
    }
    return known;
  }
}

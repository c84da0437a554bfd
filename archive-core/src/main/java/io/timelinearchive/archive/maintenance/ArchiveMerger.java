package io.timelinearchive.archive.maintenance;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveMergePlan;
import io.timelinearchive.format.CorruptArchiveException;
import io.timelinearchive.format.LogBlocks;
import io.timelinearchive.storage.ExclusiveCreate;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
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
public final class ArchiveMerger {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveMerger.class);

  private final MetaStorage storage;
  private final MergeSettings settings;
  private final long maxFileBytes;
  private final ArchiveLock lock;
  private final Consumer<String> warnings;

  /**
   * What a merge did.
   *
   * @param after the archive folder once merged
   */
  public record Merge(
      List<String> sources, String mergedFile, long bytes, int blocks, ArchiveFolder after) {
    public Merge {
      sources = List.copyOf(sources);
      requireNonNull(mergedFile, "mergedFile is null");
      requireNonNull(after, "after is null");
    }
  }

  /**
   * @param maxFileBytes the most one merged file holds ({@code archive.file.max-bytes})
   * @param warnings told what a recovery or a skipped merge did
   */
  public ArchiveMerger(
      MetaStorage storage,
      MergeSettings settings,
      long maxFileBytes,
      ArchiveLock lock,
      Consumer<String> warnings) {
    this.storage = requireNonNull(storage, "storage is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.maxFileBytes = maxFileBytes;
    this.lock = requireNonNull(lock, "lock is null");
    this.warnings = requireNonNull(warnings, "warnings is null");
  }

  /**
   * Finishes or undoes the merge a plan in the folder names, whatever the setting now says (both
   * copies on storage would be one too many), as Hudi's {@code
   * verifyLastMergeArchiveFilesIfNecessary} does: an unreadable plan was cut off before the merged
   * file was begun; with every source still there the merged file (whole or not) goes; with some
   * gone the merged file is whole and the rest go.
   *
   * @param folder the archive folder as listed at the start of the run
   * @return the archive folder after recovery ({@code folder} itself when there was no plan)
   */
  public ArchiveFolder recover(ArchiveFolder folder) throws IOException {
    if (!folder.mergePlanListed()) {
      return folder;
    }
    lock.check();
    // Listed again under the lock: the first listing came before it.
    ArchiveFolder now = ArchiveFolder.list(storage, folder.location());
    Optional<ArchiveMergePlan.Read> read = ArchiveMergePlan.read(storage, folder.location());
    if (read.isEmpty()) {
      return now;
    }
    StorageLocation planFile = ArchiveMergePlan.location(folder.location());
    if (read.get() instanceof ArchiveMergePlan.Read.Unreadable unreadable) {
      warnings.accept(
          "removed the unreadable merge plan "
              + planFile
              + " ("
              + unreadable.reason()
              + "): its merge had not begun");
    } else if (read.get() instanceof ArchiveMergePlan.Read.Parsed parsed) {
      finish(parsed.plan(), now, planFile);
      // The plan is what tells readers which copy to skip: it goes only once the deletes it
      // covers survive a power loss.
      storage.syncDeletes(folder.location());
    }
    lock.check();
    storage.deleteAll(List.of(planFile));
    return ArchiveFolder.list(storage, folder.location());
  }

  private void finish(ArchiveMergePlan plan, ArchiveFolder now, StorageLocation planFile)
      throws IOException {
    StorageLocation folder = now.location();
    Set<String> present =
        now.archiveFiles().stream().map(FileEntry::name).collect(Collectors.toSet());
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

  /**
   * Merges the newest small archive files when enough of them are there.
   *
   * @param folder the archive folder with what this run wrote to it
   * @param now the time the merged file is written, for the folder returned
   * @return what was merged, if anything
   */
  public Optional<Merge> mergeIfDue(ArchiveFolder folder, Instant now) throws IOException {
    if (settings.enabled().equals(Optional.of(false))) {
      return Optional.empty();
    }
    if (candidates(folder).size() < settings.batchSize()) {
      return Optional.empty();
    }
    // Unset: on where each run writes a new file, which the store's lack of append decides.
    if (settings.enabled().isEmpty() && storage.supportsAppend()) {
      return Optional.empty();
    }
    // Listed again under the lock, so the merged file's version is above every file's.
    ArchiveFolder listed = ArchiveFolder.list(storage, folder.location());
    List<FileEntry> candidates = candidates(listed);
    if (candidates.size() < settings.batchSize()) {
      return Optional.empty();
    }
    return merge(candidates, listed, now);
  }

  private Optional<Merge> merge(List<FileEntry> candidates, ArchiveFolder folder, Instant now)
      throws IOException {
    ByteArrayOutputStream merged = new ByteArrayOutputStream();
    int blocks = 0;
    for (FileEntry file : candidates) {
      lock.checkIfDue();
      byte[] bytes;
      try {
        bytes = storage.read(file.location());
      } catch (NoSuchFileException e) {
        warnings.accept("merge skipped: " + file.location() + " disappeared");
        return Optional.empty();
      }
      LogBlocks.WholeBlocks whole;
      try {
        whole = LogBlocks.wholeBlocks(bytes, file.location().toString());
      } catch (CorruptArchiveException e) {
        // Copying it would move the damage into the newest file; the sources stay as they are.
        warnings.accept("merge skipped: " + e.getMessage());
        return Optional.empty();
      }
      merged.write(bytes, 0, whole.length());
      blocks += whole.blocks();
    }
    ArchiveMergePlan plan =
        new ArchiveMergePlan(
            candidates.stream().map(FileEntry::name).toList(),
            ArchiveFileName.of(folder.newestVersion() + 1));
    StorageLocation planFile = ArchiveMergePlan.location(folder.location());
    StorageLocation mergedFile = folder.location().resolve(plan.mergedFile());

    lock.check();
    ExclusiveCreate.create(storage, planFile, plan.encode(folder.location()));
    lock.check();
    try {
      ExclusiveCreate.create(storage, mergedFile, merged.toByteArray());
    } catch (FileAlreadyExistsException e) {
      // Only an archiver ignoring the lock gets here. The plan goes at once: left behind, it would
      // have the next run delete that writer's file as a partial merge.
      storage.deleteAll(List.of(planFile));
      throw new IOException(
          "archive file " + mergedFile + " was written by someone else meanwhile; merge undone", e);
    }
    lock.check();
    storage.deleteAll(candidates.stream().map(FileEntry::location).toList());
    storage.syncDeletes(folder.location());
    lock.check();
    storage.deleteAll(List.of(planFile));
    LOG.info("merged {} archive files into {}", candidates.size(), mergedFile);
    ArchiveFolder after =
        folder.without(plan.candidates()).withWritten(plan.mergedFile(), merged.size(), now);
    return Optional.of(
        new Merge(plan.candidates(), plan.mergedFile(), merged.size(), blocks, after));
  }

  /**
   * The newest consecutive archive files each within the small-file limit, together within {@code
   * archive.file.max-bytes}, oldest first.
   */
  private List<FileEntry> candidates(ArchiveFolder folder) {
    List<FileEntry> files = folder.archiveFiles();
    List<FileEntry> picked = new ArrayList<>();
    long total = 0;
    for (int i = files.size() - 1; i >= 0; i--) {
      FileEntry f = files.get(i);
      if (f.length() > settings.smallFileLimitBytes() || total + f.length() > maxFileBytes) {
        break;
      }
      total += f.length();
      picked.add(0, f);
    }
    return picked;
  }
}

package io.timelinearchive.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reader of a live table's timelines, as a query engine reads them while a writer commits and we
 * archive: each look lists the active timeline, then reads the archived one, and checks what it saw
 * against what the writer said it completed before the look began.
 *
 * <p>A listing is not a snapshot (a local folder lists in hash order, an object store page by page
 * while deletes go on), so a hole or a pending-looking instant that a listing shows is confirmed by
 * reading the files concerned again after it: a file present after another was seen gone was
 * present while it was gone, since the archiver only ever deletes.
 */
final class TimelineWatcher {
  // a state, or the bare "TIME.inflight" of a commit under way
  private static final Pattern INSTANT =
      Pattern.compile("^(\\d+)\\.(\\w+?)(\\.(requested|inflight))?$");
  private static final Set<String> COMMITS = Set.of("commit", "deltacommit", "replacecommit");

  private final Store store;
  private final StorageLocation table;
  private final StorageLocation meta;
  private final Path progress;
  // every completed instant of the commits timeline a look saw, by time
  private final TreeSet<String> seenCompleted = new TreeSet<>();
  private final List<String> violations = new ArrayList<>();
  private int looks;
  private int archiveRelistings;

  TimelineWatcher(Store store, StorageLocation table, Path progress) {
    this.store = store;
    this.table = table;
    this.meta = table.resolve(".hoodie");
    this.progress = progress;
  }

  /** The instant times the writer completed so far, in commit order. */
  static List<String> completedByWriter(Path progress) throws IOException {
    if (!Files.exists(progress)) {
      return List.of();
    }
    return Files.readString(progress, UTF_8).lines().filter(l -> !l.isBlank()).toList();
  }

  /** One look at both timelines; what it finds wrong is kept for {@link #violations}. */
  void look() throws IOException {
    List<String> known = completedByWriter(progress);
    try (MetaStorage storage = store.open(table)) {
      List<String> names;
      try {
        names = storage.list(meta).toList().stream().map(FileEntry::name).toList();
      } catch (NoSuchFileException e) {
        return; // the writer has not created the table yet
      }
      TreeSet<String> completed = new TreeSet<>();
      TreeSet<String> pending = new TreeSet<>();
      for (String name : names) {
        Matcher m = INSTANT.matcher(name);
        if (!m.matches()) {
          continue;
        }
        (completed(m) ? completed : pending).add(name);
      }
      Set<String> archived = archivedTimes(storage);
      looks++;
      TreeSet<String> completedTimes = times(completed, true);
      for (String time : known) {
        if (!completedTimes.contains(time) && !archived.contains(time)) {
          violations.add("look " + looks + ": " + time + " completed by the writer, seen nowhere");
        }
        if (!completedTimes.contains(time)) {
          for (String p : pending) {
            if (p.startsWith(time + ".") && StoreTables.exists(storage, meta.resolve(p))) {
              violations.add("look " + looks + ": " + time + " completed, now looks pending: " + p);
            }
          }
        }
      }
      synchronized (this) {
        seenCompleted.addAll(completedTimes);
      }
      // a hole: a commit seen completed before is gone while an older one is still there
      for (String gone : seenCompletedNotIn(completedTimes)) {
        for (String name : completed.headSet(gone)) {
          if (COMMITS.contains(action(name)) && StoreTables.exists(storage, meta.resolve(name))) {
            violations.add(
                "look " + looks + ": hole, " + gone + " gone while " + name + " is there");
            break;
          }
        }
      }
    }
  }

  private static boolean completed(Matcher m) {
    return m.group(3) == null && !m.group(2).equals("inflight");
  }

  private static String action(String name) {
    return name.split("\\.")[1];
  }

  private synchronized TreeSet<String> seenCompletedNotIn(TreeSet<String> now) {
    TreeSet<String> gone = new TreeSet<>(seenCompleted);
    gone.removeAll(now);
    return gone;
  }

  /** The times of the commits-timeline files among {@code names}, or of all if not only those. */
  private static TreeSet<String> times(TreeSet<String> names, boolean commitsOnly) {
    TreeSet<String> times = new TreeSet<>();
    for (String name : names) {
      if (!commitsOnly || COMMITS.contains(action(name))) {
        times.add(name.substring(0, name.indexOf('.')));
      }
    }
    return times;
  }

  /**
   * The instant times the archived timeline holds, as a reader reads it now. Where the store cannot
   * append, a run may merge the small archive files and delete them, so a file this reader listed
   * can be gone when it reads it: as {@code ArchivedTimeline} does, it lists again (the merged
   * file, or the plan saying which copy to read, is there by then), three times at most.
   */
  private Set<String> archivedTimes(MetaStorage storage) throws IOException {
    StorageLocation folder = meta.resolve("archived");
    for (int attempt = 1; ; attempt++) {
      List<String> problems = new ArrayList<>();
      Set<String> times = new TreeSet<>();
      try {
        for (InvariantChecker.Archived a :
            InvariantChecker.readArchive(storage, folder, problems)) {
          times.add(a.time());
        }
      } catch (NoSuchFileException e) {
        if (!folderExists(storage, folder)) {
          return times; // no archive folder yet
        }
        if (attempt == 3) {
          throw e;
        }
        archiveRelistings++; // a file listed was gone when read
        continue;
      }
      if (!problems.isEmpty()) {
        violations.add("look " + looks + ": the archived timeline reads wrong: " + problems);
      }
      return times;
    }
  }

  private static boolean folderExists(MetaStorage storage, StorageLocation folder)
      throws IOException {
    try {
      storage.list(folder).toList();
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** At the end: every commit the writer completed or a look saw is active or archived. */
  List<String> lost() throws IOException {
    List<String> lost = new ArrayList<>();
    TreeSet<String> wanted = new TreeSet<>(completedByWriter(progress));
    synchronized (this) {
      wanted.addAll(seenCompleted);
    }
    try (MetaStorage storage = store.open(table)) {
      TreeSet<String> active = new TreeSet<>();
      for (FileEntry e : storage.list(meta).toList()) {
        Matcher m = INSTANT.matcher(e.name());
        if (m.matches() && completed(m)) {
          active.add(m.group(1));
        }
      }
      Set<String> archived = archivedTimes(storage);
      for (String time : wanted) {
        if (!active.contains(time) && !archived.contains(time)) {
          lost.add(time);
        }
      }
    }
    return lost;
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  int looks() {
    return looks;
  }

  /** How often a look listed the archive folder again, a file it listed gone when read. */
  int archiveRelistings() {
    return archiveRelistings;
  }
}

package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A lock holder paused past its lease, through the CLI's pause hook (as a long GC pause or a
 * suspended VM would pause it): once the lease has run out, a successor takes the lock over and
 * finishes what the holder started; the holder, resumed, gives up with exit 4 and changes nothing;
 * the table ends as after one uninterrupted run.
 */
final class PausedHolder {
  /** Phases where a pause matters: before the archive is written, before each kind of delete. */
  static final List<String> PHASES = List.of("WRITE", "DELETE_PENDING", "DELETE_COMPLETED");

  private PausedHolder() {}

  /**
   * Runs the scenario on a fresh copy of {@code reference}'s table and asserts its outcome.
   *
   * @return a line saying what each run did, for the log
   */
  static String run(Path work, Store store, Reference reference, String phase) throws Exception {
    // the holder's lease is waited out, so it is only as long as this machine needs; the
    // successor's is long, so that its run (901 single deletes on Azurite, say) never outlives it
    String lease = Leases.pausedHolder(work, store, reference);
    StorageLocation table = store.newRoot("paused-" + phase.toLowerCase(java.util.Locale.ROOT));
    StoreTables.upload(reference.pristine(), store, table);
    List<String> args = archive(table, store, reference, lease);

    Jar.Started holder = Jar.startPausingBefore(work, phase, args);
    try {
      awaitPause(holder);
      StoreTables.waitForLease(store, table);
      Jar.Run successor = Jar.start(work, archive(table, store, reference, Leases.LONG)).await();
      assertThat(successor.exitCode()).as("successor: %s", successor.err()).isZero();
      // a run that succeeds prints its warnings with its result; no library chatter either
      assertThat(successor.errors()).as("successor's standard error").isEmpty();
      Map<String, Long> beforeResume = files(store, table);

      holder.resume();
      Jar.Run resumed = holder.await();

      assertThat(resumed.exitCode()).as("resumed holder: %s", resumed.both()).isEqualTo(4);
      assertThat(resumed.err()).doesNotContain("\tat ");
      assertThat(resumed.errors().lines().filter(l -> l.startsWith("error: ")))
          .as("one line saying why, in: %s", resumed.err())
          .hasSize(1);
      assertThat(files(store, table))
          .as("what the resumed holder left: nothing changed after the successor")
          .isEqualTo(beforeResume);
      assertEndsAsOneRun(store, table, reference);
      return String.format(
          "%s holder paused before %s past its %s lease: successor said \"%s\"; resumed holder"
              + " exit %d: %s",
          store,
          phase,
          lease,
          said(successor),
          resumed.exitCode(),
          resumed.errors().strip().replace("\n", " / "));
    } finally {
      if (holder.process().isAlive()) {
        holder.kill();
      }
    }
  }

  /**
   * A holder killed (SIGKILL) while it holds the lock, on the same host as the next run: the next
   * run takes the lock over at once, with the whole lease still ahead, and finishes the table.
   *
   * @return a line saying what the next run did, for the log
   */
  static String killed(Path work, Store store, Reference reference, String phase) throws Exception {
    StorageLocation table = store.newRoot("killed-" + phase.toLowerCase(java.util.Locale.ROOT));
    StoreTables.upload(reference.pristine(), store, table);
    List<String> args = archive(table, store, reference, Leases.LONG);

    Jar.Started holder = Jar.startPausingBefore(work, phase, args);
    awaitPause(holder);
    holder.kill();
    Jar.Run next = Jar.start(work, args).await();
    assertThat(next.exitCode()).as("next run: %s", next.err()).isZero();
    assertEndsAsOneRun(store, table, reference);
    return store
        + " holder killed before "
        + phase
        + " under a 1h lease: the next run said \""
        + said(next)
        + "\"";
  }

  private static List<String> archive(
      StorageLocation table, Store store, Reference reference, String lease) {
    List<String> args = new ArrayList<>(List.of("archive", table.toString()));
    args.addAll(reference.options());
    args.addAll(List.of("--conf", "archive.lock.lease=" + lease));
    args.addAll(store.conf());
    return args;
  }

  /** The table ends as after one uninterrupted run, and is cleared for the next scenario. */
  private static void assertEndsAsOneRun(Store store, StorageLocation table, Reference reference)
      throws Exception {
    assertThat(StoreTables.violations(new InvariantChecker(reference.original()), store, table))
        .isEmpty();
    assertThat(new TreeSet<>(StoreTables.snapshot(store, table).keySet()))
        .as("active timeline")
        .isEqualTo(reference.cleanActive());
    assertThat(StoreTables.archiveFolder(store, table))
        .as("no lock or journal left behind")
        .noneMatch(n -> n.startsWith(".timeline_archive"));
    StoreTables.clear(store, table);
  }

  /** What a run that finished the table said it did. */
  private static String said(Jar.Run run) {
    return run.out()
        .lines()
        .filter(l -> l.startsWith("finished an interrupted run") || l.startsWith("archived "))
        .collect(java.util.stream.Collectors.joining("; "));
  }

  private static void awaitPause(Jar.Started holder) throws Exception {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(3);
    while (!holder.errSoFar().contains("paused before ")) {
      if (!holder.process().isAlive()) {
        Jar.Run run = holder.await();
        throw new AssertionError(
            "the holder ended (exit " + run.exitCode() + ") without pausing: " + run.both());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the holder did not pause: " + holder.errSoFar());
      }
      Thread.sleep(20);
    }
  }

  /** Every file of the table's metadata and archive folders, with its length. */
  private static Map<String, Long> files(Store store, StorageLocation table) throws Exception {
    Map<String, Long> files = new TreeMap<>();
    try (MetaStorage storage = store.open(table)) {
      for (String folder : List.of(".hoodie", ".hoodie/archived")) {
        for (FileEntry e : storage.list(table.resolve(folder)).toList()) {
          files.put(folder + "/" + e.name(), e.length());
        }
      }
    }
    return files;
  }
}

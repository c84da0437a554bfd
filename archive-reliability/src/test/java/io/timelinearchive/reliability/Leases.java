package io.timelinearchive.reliability;

import io.timelinearchive.storage.StorageLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leases the tests give the CLI's runs, chosen so that no busy machine outlives them.
 *
 * <p>A run killed or failed on this host is taken over at once by the next run there (the lock
 * records its holder's process), so the tests that kill runs need no short lease to wait out: they
 * give every run {@link #LONG}, which no slow step of a run comes near. Only a holder that is alive
 * but paused has to be waited out; its lease is derived from how long a whole run of the same table
 * takes on the same store on this machine ({@link #pausedHolder}), never a fixed few seconds.
 */
final class Leases {
  /** Far longer than any run: a run that hits it has hung. */
  static final String LONG = "1h";

  // a paused holder's lease: this many whole runs, and never less than the floor
  private static final int RUNS_OF_HEADROOM = 5;
  private static final Duration FLOOR = Duration.ofSeconds(10);
  private static final Map<String, Duration> RUN_TIMES = new ConcurrentHashMap<>();

  private Leases() {}

  /**
   * A lease for a holder that will be paused before a phase of a run on {@code reference}'s table:
   * the holder renews it while it works, so it must outlast the longest single step before the
   * pause, which a whole run bounds; {@value #RUNS_OF_HEADROOM} whole runs, as measured once per
   * store on this machine, leave room for the load to grow meanwhile.
   */
  static String pausedHolder(Path work, Store store, Reference reference) throws Exception {
    Duration run =
        RUN_TIMES.computeIfAbsent(
            store.name() + " " + reference.original().size(), n -> measure(work, store, reference));
    Duration lease = run.multipliedBy(RUNS_OF_HEADROOM);
    return Math.max(lease.toSeconds() + 1, FLOOR.toSeconds()) + "s";
  }

  /** How long one uninterrupted run of {@code reference}'s table takes on {@code store}. */
  private static Duration measure(Path work, Store store, Reference reference) {
    try {
      StorageLocation table = store.newRoot("measure");
      StoreTables.upload(reference.pristine(), store, table);
      List<String> args = new java.util.ArrayList<>(List.of("archive", table.toString()));
      args.addAll(reference.options());
      args.addAll(List.of("--conf", "archive.lock.lease=" + LONG));
      args.addAll(store.conf());
      long start = System.nanoTime();
      Jar.Run run = Jar.start(work, args).await();
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      if (run.exitCode() != 0) {
        throw new AssertionError("the measuring run failed: " + run.both());
      }
      StoreTables.clear(store, table);
      System.out.printf(
          "%s: a whole run of the table of %d instant files took %d ms%n",
          store, reference.original().size(), took.toMillis());
      return took;
    } catch (Exception e) {
      throw new IllegalStateException("could not measure a run on " + store, e);
    }
  }
}

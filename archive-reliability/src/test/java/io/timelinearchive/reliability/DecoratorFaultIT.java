package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.reliability.FaultyMetaStorage.Call;
import io.timelinearchive.reliability.FaultyMetaStorage.Fault;
import io.timelinearchive.reliability.FaultyMetaStorage.Kind;
import io.timelinearchive.reliability.FaultyMetaStorage.Rule;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.hdfs.MiniDfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Store faults on local disk and HDFS, the stores no HTTP proxy can stand in front of: the archiver
 * runs in this JVM on a {@link FaultyMetaStorage} that fails, loses the answer of, or delays chosen
 * calls, as {@link S3FaultIT} does for S3 through a proxy. Each faulty run either completes or
 * fails with an {@link IOException} (never an unchecked one), the invariants holding right after
 * it; a later run on the plain store then leaves the table as an uninterrupted run does, every
 * original instant file present exactly once.
 */
class DecoratorFaultIT {
  @RegisterExtension static final MiniDfs DFS = new MiniDfs();

  @TempDir static Path localDisk;

  // Long, so that no delay on a busy machine makes a faulty run lose its lease. The later run does
  // not wait for a lease a faulty run left: its clock starts past it (see laterClock).
  private static final String LEASE = Leases.LONG;
  private static final Duration DELAY = Duration.ofMillis(500);

  private static Store store(String name) {
    return switch (name) {
      case "local" -> Store.local(localDisk);
      case "hdfs" -> Store.hdfs(DFS);
      default -> throw new IllegalArgumentException("no store " + name);
    };
  }

  private static boolean instantRead(Call c) {
    return c.isInstantRead();
  }

  private static boolean archiveAppend(Call c) {
    return c.kind() == Kind.APPEND && c.isArchiveFile();
  }

  private static boolean archiveOpenLog(Call c) {
    return c.kind() == Kind.OPEN_LOG && c.isArchiveFile();
  }

  private static boolean lockCreate(Call c) {
    return c.kind() == Kind.CREATE && c.isLock();
  }

  private static boolean journalCreate(Call c) {
    return c.kind() == Kind.CREATE && c.isJournal();
  }

  private static boolean lockRelease(Call c) {
    return c.kind() == Kind.DELETE && c.isLock();
  }

  private static boolean delete(Call c) {
    return c.kind() == Kind.DELETE;
  }

  // one file per deleteAll call, oldest first: the deletes that make holes if done out of order
  private static boolean completedInstantDelete(Call c) {
    return c.kind() == Kind.DELETE
        && c.name().matches("\\d+\\.[a-z]+")
        && !c.name().endsWith(".inflight");
  }

  private static boolean list(Call c) {
    return c.kind() == Kind.LIST;
  }

  private record Case(String name, Supplier<Rule> rule) {}

  private static List<Case> cases() {
    Map<String, Supplier<Rule>> cases = new LinkedHashMap<>();
    cases.put(
        "the first 5 instant reads fail",
        () -> Rule.first(5, DecoratorFaultIT::instantRead, Fault.FAIL_BEFORE));
    cases.put(
        "every 50th instant read fails",
        () -> Rule.everyNth(50, DecoratorFaultIT::instantRead, Fault.FAIL_BEFORE));
    cases.put(
        "every instant read fails",
        () -> Rule.every(DecoratorFaultIT::instantRead, Fault.FAIL_BEFORE));
    cases.put("every listing delayed 0.5 s", () -> Rule.every(DecoratorFaultIT::list, Fault.DELAY));
    cases.put(
        "opening the archive file for append fails, once",
        () -> Rule.first(1, DecoratorFaultIT::archiveOpenLog, Fault.FAIL_BEFORE));
    cases.put(
        "opening the archive file for append takes effect, its answer lost, every time",
        () -> Rule.every(DecoratorFaultIT::archiveOpenLog, Fault.FAIL_AFTER));
    cases.put(
        "an append to the archive file fails, once",
        () -> Rule.first(1, DecoratorFaultIT::archiveAppend, Fault.FAIL_BEFORE));
    cases.put(
        "an append to the archive file takes effect, its answer lost, once",
        () -> Rule.first(1, DecoratorFaultIT::archiveAppend, Fault.FAIL_AFTER));
    cases.put(
        "every append to the archive file takes effect, its answer lost",
        () -> Rule.every(DecoratorFaultIT::archiveAppend, Fault.FAIL_AFTER));
    cases.put(
        "the lock's create takes effect, its answer lost, once",
        () -> Rule.first(1, DecoratorFaultIT::lockCreate, Fault.FAIL_AFTER));
    cases.put(
        "the journal's create takes effect, its answer lost, once",
        () -> Rule.first(1, DecoratorFaultIT::journalCreate, Fault.FAIL_AFTER));
    cases.put(
        "a delete takes effect, its answer lost, once",
        () -> Rule.first(1, DecoratorFaultIT::delete, Fault.FAIL_AFTER));
    cases.put("every delete fails", () -> Rule.every(DecoratorFaultIT::delete, Fault.FAIL_BEFORE));
    cases.put(
        "the first 3 deletes delayed 0.5 s",
        () -> Rule.first(3, DecoratorFaultIT::delete, Fault.DELAY));
    cases.put(
        "every delete of a completed instant after the first 10 fails (amid the oldest-first"
            + " deletes)",
        () -> Rule.after(10, DecoratorFaultIT::completedInstantDelete, Fault.FAIL_BEFORE));
    cases.put(
        "every release of the lock fails",
        () -> Rule.every(DecoratorFaultIT::lockRelease, Fault.FAIL_BEFORE));
    // Not every 4th call of any kind, as on S3: without an SDK's retries to absorb them, the run
    // would stop at its first listings. The writes and deletes reach into the delete phase.
    cases.put(
        "every 4th create, open for append, append or delete, in turn delayed, failing before,"
            + " failing after taking effect",
        () ->
            Rule.inTurn(
                4, Call::isMutating, List.of(Fault.DELAY, Fault.FAIL_BEFORE, Fault.FAIL_AFTER)));
    return cases.entrySet().stream().map(e -> new Case(e.getKey(), e.getValue())).toList();
  }

  /**
   * Copies the table up. On HDFS through a plain client, without the hsync and rename of each
   * exclusive create: the setup need not be durable, and it is most of a case's time there.
   */
  private static void upload(Path from, Store store, StorageLocation table) throws Exception {
    if (!store.name().equals("hdfs")) {
      StoreTables.upload(from, store, table);
      return;
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(from)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (FileSystem fs = DFS.newClient()) {
      List<Future<?>> uploads = new ArrayList<>();
      for (Path file : files) {
        org.apache.hadoop.fs.Path target =
            new org.apache.hadoop.fs.Path(
                table.resolve(from.relativize(file).toString()).toString());
        uploads.add(
            pool.submit(
                () -> {
                  try (FSDataOutputStream out = fs.create(target, false)) {
                    out.write(Files.readAllBytes(file));
                  }
                  return null;
                }));
      }
      for (Future<?> upload : uploads) {
        upload.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The clock of a run started once the lease a faulty run left in the table ran out: what {@link
   * StoreTables#waitForLease} waits for, without the wait.
   */
  private static Clock laterClock(Store store, StorageLocation table) throws IOException {
    java.time.Instant expiry = StoreTables.leaseExpiry(store, table);
    if (expiry.equals(java.time.Instant.MIN)) {
      return Clock.systemUTC();
    }
    Duration ahead = Duration.between(java.time.Instant.now(), expiry).plusMillis(50);
    return ahead.isNegative() ? Clock.systemUTC() : Clock.offset(Clock.systemUTC(), ahead);
  }

  static Stream<Arguments> faults() {
    return Stream.of("local", "hdfs")
        .flatMap(s -> cases().stream().map(c -> Arguments.of(s, c.name(), c.rule())));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("faults")
  void aFaultyRunCompletesOrFailsSafeAndALaterRunRestores(
      String storeName, String name, Supplier<Rule> rule) throws Exception {
    Reference reference = Reference.faults();
    Store store = store(storeName);
    StorageLocation table = store.newRoot("fault");
    long start = System.nanoTime();
    upload(reference.pristine(), store, table);
    long uploaded = System.nanoTime();
    InvariantChecker checker = new InvariantChecker(reference.original());
    Map<String, String> config = new HashMap<>(store.config());
    config.putAll(Reference.FAULTS_CONFIG);
    config.put("archive.lock.lease", LEASE);

    FaultyMetaStorage faulty;
    String outcome;
    Throwable failure = null;
    try (MetaStorage plain = store.open(table)) {
      faulty = new FaultyMetaStorage(plain, rule.get(), DELAY);
      try (TimelineArchiver archiver =
          TimelineArchiver.create(faulty, table, config, Clock.systemUTC(), ArchiveListener.NONE)) {
        ArchiveResult result = archiver.archiveIfRequired();
        outcome = "completed, archived " + result.archived().size();
      } catch (Throwable t) {
        failure = t;
        outcome = "failed: " + t.getClass().getSimpleName() + ": " + t.getMessage();
      }
    }
    long faultyDone = System.nanoTime();
    List<String> afterFaulty = StoreTables.violations(checker, store, table);

    Clock later = laterClock(store, table);
    long laterStart = System.nanoTime();
    String restore;
    Throwable restoreFailure = null;
    try (MetaStorage plain = store.open(table);
        TimelineArchiver archiver =
            TimelineArchiver.create(plain, table, config, later, ArchiveListener.NONE)) {
      ArchiveResult result = archiver.archiveIfRequired();
      restore =
          "completed, archived "
              + result.archived().size()
              + ", recovered "
              + result.recovered().size();
    } catch (Throwable t) {
      restoreFailure = t;
      restore = "failed: " + t;
    }
    long laterDone = System.nanoTime();
    List<String> afterRestore = StoreTables.violations(checker, store, table);
    TreeSet<String> active = new TreeSet<>(StoreTables.snapshot(store, table).keySet());
    System.out.printf(
        "%s fault '%s': %d calls faulted or delayed %s; faulty run %s; violations after it %d;"
            + " later run %s, violations after it %d (ms: upload %d, faulty run %d, later run %d)%n",
        storeName,
        name,
        faulty.faulted(),
        faulty.faultsByKind(),
        outcome,
        afterFaulty.size(),
        restore,
        afterRestore.size(),
        (uploaded - start) / 1_000_000,
        (faultyDone - uploaded) / 1_000_000,
        (laterDone - laterStart) / 1_000_000);

    assertThat(faulty.faulted()).as("calls the decorator faulted or delayed").isPositive();
    // ArchiveLockedException is an IOException too; anything else escaping is a bug
    if (failure != null && !(failure instanceof IOException)) {
      throw new AssertionError("the faulty run failed with a " + failure.getClass(), failure);
    }
    assertThat(afterFaulty).as("invariants right after the faulty run").isEmpty();
    if (restoreFailure != null) {
      throw new AssertionError("the later run failed", restoreFailure);
    }
    assertThat(afterRestore).as("invariants after the later run").isEmpty();
    assertThat(active).as("active timeline after the later run").isEqualTo(reference.cleanActive());
    assertThat(StoreTables.archiveFolder(store, table))
        .as("no lock or journal left behind")
        .noneMatch(n -> n.startsWith(".timeline_archive"));
    StoreTables.clear(store, table);
  }
}

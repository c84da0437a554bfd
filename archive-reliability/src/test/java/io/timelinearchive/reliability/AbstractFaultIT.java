package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.s3.FaultProxy;
import io.timelinearchive.storage.s3.FaultProxy.Fault;
import io.timelinearchive.storage.s3.FaultProxy.Request;
import io.timelinearchive.storage.s3.FaultProxy.Rule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Store faults under the CLI: it archives a table on S3Proxy through a proxy that answers errors
 * (503 SlowDown, 429, 500), delays, or drops the connection before or after forwarding, on chosen
 * requests. Each run either completes or fails safe (a non-zero exit with a one-line message, no
 * stack trace, the invariants holding right after it); a later run straight to the server then
 * leaves the table as an uninterrupted run does, every original instant file present exactly once.
 */
class S3FaultIT {
  private static Path work;
  private static Store store;
  private static FaultProxy proxy;
  private static Reference reference;
  private static final AtomicInteger DELAYED = new AtomicInteger();

  @BeforeAll
  static void serverAndProxy() throws Exception {
    work = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "S3FaultIT-");
    reference = Reference.small();
    store = Store.s3();
    proxy = new FaultProxy(java.net.URI.create(store.config().get("s3.endpoint")));
  }

  @AfterAll
  static void stopProxy() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (work != null) {
      Tables.delete(work);
    }
  }

  private static boolean instantRead(Request r) {
    return r.isGetObject() && r.path().matches(".*/\\.hoodie/\\d+\\.[a-z.]+$");
  }

  private static boolean archivePut(Request r) {
    return r.isPutObject() && r.path().contains("/.commits_.archive.");
  }

  private static boolean lockPut(Request r) {
    return r.isPutObject() && r.path().contains("/.timeline_archive.lock.");
  }

  // the S3 backend deletes everything with DeleteObjects, the lock included
  private static boolean lockRelease(Request r) {
    return r.isDeleteObjects() && r.bodyText().contains(".timeline_archive.lock.");
  }

  private static boolean list(Request r) {
    return r.method().equals("GET") && r.query().contains("list-type=");
  }

  /** Faults every {@code n}th matching request. */
  private static Rule everyNth(int n, Predicate<Request> match, Fault fault) {
    AtomicInteger seen = new AtomicInteger();
    return r -> match.test(r) && seen.incrementAndGet() % n == 0 ? fault : Fault.FORWARD;
  }

  /** Faults every matching request after the first {@code n}. */
  private static Rule after(int n, Predicate<Request> match, Fault fault) {
    AtomicInteger seen = new AtomicInteger();
    return r -> match.test(r) && seen.incrementAndGet() > n ? fault : Fault.FORWARD;
  }

  /** Forwards the first {@code times} matching requests after a pause. */
  private static Rule delay(int times, Predicate<Request> match, long millis) {
    AtomicInteger left = new AtomicInteger(times);
    return r -> {
      if (match.test(r) && left.getAndDecrement() > 0) {
        DELAYED.incrementAndGet();
        try {
          Thread.sleep(millis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Fault.FORWARD;
    };
  }

  /** Every 4th request fails, in turn: dropped before, dropped after forwarding, 503, 500. */
  private static Rule chaos() {
    AtomicInteger seen = new AtomicInteger();
    List<Fault> faults =
        List.of(
            Fault.DROP_BEFORE,
            Fault.DROP_AFTER,
            Fault.respond(503, "SlowDown"),
            Fault.respond(500, "InternalError"));
    return r -> {
      int n = seen.incrementAndGet();
      return n % 4 == 0 ? faults.get((n / 4) % faults.size()) : Fault.FORWARD;
    };
  }

  static Stream<Arguments> faults() {
    Map<String, Supplier<Rule>> cases = new java.util.LinkedHashMap<>();
    cases.put(
        "503 on the first 5 instant reads",
        () -> Rule.first(5, S3FaultIT::instantRead, Fault.respond(503, "SlowDown")));
    cases.put(
        "429 on every instant read",
        () -> Rule.every(S3FaultIT::instantRead, Fault.respond(429, "TooManyRequests")));
    cases.put(
        "500 on every 50th instant read",
        () -> everyNth(50, S3FaultIT::instantRead, Fault.respond(500, "InternalError")));
    cases.put(
        "instant reads dropped before forwarding, every 20th",
        () -> everyNth(20, S3FaultIT::instantRead, Fault.DROP_BEFORE));
    cases.put("listings delayed 1 s", () -> delay(10, S3FaultIT::list, 1_000));
    cases.put(
        "the archive file's PUT dropped before forwarding, once",
        () -> Rule.first(1, S3FaultIT::archivePut, Fault.DROP_BEFORE));
    cases.put(
        "the archive file's PUT forwarded, its answer dropped, once",
        () -> Rule.first(1, S3FaultIT::archivePut, Fault.DROP_AFTER));
    cases.put(
        "the archive file's PUT forwarded, its answer dropped, every time",
        () -> Rule.every(S3FaultIT::archivePut, Fault.DROP_AFTER));
    cases.put(
        "500 on every PUT of the archive file",
        () -> Rule.every(S3FaultIT::archivePut, Fault.respond(500, "InternalError")));
    cases.put(
        "the lock's PUT forwarded, its answer dropped, once",
        () -> Rule.first(1, S3FaultIT::lockPut, Fault.DROP_AFTER));
    cases.put(
        "DeleteObjects forwarded, its answer dropped, once",
        () -> Rule.first(1, Request::isDeleteObjects, Fault.DROP_AFTER));
    cases.put(
        "503 on every DeleteObjects",
        () -> Rule.every(Request::isDeleteObjects, Fault.respond(503, "SlowDown")));
    cases.put(
        "the first 3 DeleteObjects delayed 2 s", () -> delay(3, Request::isDeleteObjects, 2_000));
    cases.put(
        "500 on every DeleteObjects after the first 10 (amid the oldest-first deletes)",
        () -> after(10, Request::isDeleteObjects, Fault.respond(500, "InternalError")));
    cases.put(
        "500 on every release of the lock",
        () -> Rule.every(S3FaultIT::lockRelease, Fault.respond(500, "InternalError")));
    cases.put("every 4th request fails, in turn four ways", S3FaultIT::chaos);
    return cases.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void aFaultyRunCompletesOrFailsSafeAndALaterRunRestores(String name, Supplier<Rule> rule)
      throws Exception {
    StorageLocation table = store.newRoot("fault");
    StoreTables.upload(reference.pristine(), store, table);
    InvariantChecker checker = new InvariantChecker(reference.original());

    Map<String, String> viaProxy = new HashMap<>(store.config());
    viaProxy.put("s3.endpoint", proxy.endpoint().toString());
    // A lease shorter than the default 10 minutes, so that a lock left by a failed release costs
    // the later run a short wait; long enough that a busy machine's pauses do not outlast it.
    List<String> args =
        new ArrayList<>(
            List.of(
                "archive", table.toString(), "--batch", "2", "--conf", "archive.lock.lease=30s"));
    new java.util.TreeMap<>(viaProxy)
        .forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    int logBefore = proxy.log().size();
    int delayedBefore = DELAYED.get();
    proxy.rule(rule.get());
    Jar.Run faulty;
    try {
      faulty = Jar.start(work, args).await();
    } finally {
      proxy.rule(r -> Fault.FORWARD);
    }
    long faulted =
        proxy.log().subList(logBefore, proxy.log().size()).stream()
                .filter(l -> !l.endsWith("FORWARD 0"))
                .count()
            + DELAYED.get()
            - delayedBefore;
    List<String> afterFaulty = StoreTables.violations(checker, store, table);

    StoreTables.waitForLease(store, table);
    List<String> clean = new ArrayList<>(List.of("archive", table.toString(), "--batch", "2"));
    clean.addAll(store.conf());
    Jar.Run restore = Jar.start(work, clean).await();
    List<String> afterRestore = StoreTables.violations(checker, store, table);
    TreeSet<String> active = new TreeSet<>(StoreTables.snapshot(store, table).keySet());
    System.out.printf(
        "fault '%s': %d requests faulted or delayed; faulty run exit %d (%s); violations after it %d;"
            + " later run exit %d (%s), violations after it %d%n",
        name,
        faulted,
        faulty.exitCode(),
        faulty.exitCode() == 0 ? faulty.out().strip() : faulty.err().strip(),
        afterFaulty.size(),
        restore.exitCode(),
        restore.out().strip(),
        afterRestore.size());

    assertThat(faulted).as("requests the proxy faulted or delayed").isPositive();
    assertThat(faulty.err()).as("no stack trace").doesNotContain("\tat ");
    if (faulty.exitCode() != 0) {
      // after the phases reported so far, one line saying what failed
      assertThat(faulty.err().lines().filter(l -> l.startsWith("error: ")))
          .as("a clear message in: %s", faulty.err())
          .hasSize(1);
    }
    assertThat(afterFaulty).as("invariants right after the faulty run").isEmpty();
    assertThat(restore.exitCode()).as("later run: %s", restore.err()).isZero();
    assertThat(afterRestore).as("invariants after the later run").isEmpty();
    assertThat(active).as("active timeline after the later run").isEqualTo(reference.cleanActive());
    assertThat(StoreTables.archiveFolder(store, table))
        .as("no lock or journal left behind")
        .noneMatch(n -> n.startsWith(".timeline_archive"));
    StoreTables.clear(store, table);
  }
}

package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;
import io.timelinearchive.testing.FaultProxy.Rule;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Store faults under the CLI: it archives a table on a server through a proxy that answers errors
 * (503, 429, 500), delays, or drops the connection before or after forwarding, on chosen requests.
 * Each run either completes or fails safe (a non-zero exit with a one-line message, no stack trace,
 * the invariants holding right after it); a later run straight to the server then leaves the table
 * as an uninterrupted run does, every original instant file present exactly once.
 *
 * <p>The proxy is archive-test-fixtures' FaultProxy: plain HTTP/1.1 forwarded byte for byte, so it
 * serves the other HTTP stores as well. Each subclass says which of its store's requests are which.
 *
 * <p>Every case runs on every store in the long form ({@code -Dreliability.fault-cases=all}); the
 * short form runs the cases marked short, which each store may change.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractFaultIT {
  private static final boolean ALL_CASES =
      "all".equals(System.getProperty("reliability.fault-cases", "short"));

  private Path work;
  private Store store;
  private FaultProxy proxy;
  private Reference reference;
  private final AtomicInteger delayed = new AtomicInteger();

  abstract Store store();

  /** The setting that holds the store's endpoint URI. */
  abstract String endpointKey();

  /** Where the proxy forwards to. */
  private URI upstream(Map<String, String> config) {
    return URI.create(config.get(endpointKey()));
  }

  /** The store's settings, sending its requests to {@code proxy} instead (same path). */
  private Map<String, String> viaProxy(Map<String, String> config, URI proxy) {
    Map<String, String> via = new java.util.HashMap<>(config);
    via.put(endpointKey(), proxy + upstream(config).getPath());
    return via;
  }

  /** Whether the short form runs the case of this name on this store: the cases marked short. */
  boolean inShortForm(String name, boolean marked) {
    return marked;
  }

  /** An error answer of the store's API with this status. */
  abstract Fault error(int status);

  /** A download of an instant file (or a look at its metadata). */
  boolean instantRead(Request r) {
    return r.method().equals("GET") && namesAnInstantFile(r);
  }

  abstract boolean list(Request r);

  /** A request that writes an object: creates it, or appends to it. */
  abstract boolean write(Request r);

  /** A request that creates or appends to an archive file. */
  boolean archiveWrite(Request r) {
    return write(r) && names(r).contains("/.commits_.archive.");
  }

  boolean lockWrite(Request r) {
    return write(r) && names(r).contains("/.timeline_archive.lock.");
  }

  /** A request deleting one file or a batch of them. */
  abstract boolean delete(Request r);

  /** A delete of the lock, as the end of a run releases it. */
  boolean lockRelease(Request r) {
    return delete(r) && names(r).contains(".timeline_archive.lock.");
  }

  /**
   * The target and the start of the body, where the requests of these APIs name files, with the
   * slashes of object names unescaped (the other characters of our file names are never escaped).
   */
  static String names(Request r) {
    // without chunk framing, and unzipped: the GCS client compresses what it uploads
    byte[] body = r.content();
    String head =
        new String(body, 0, Math.min(body.length, 64 * 1024), StandardCharsets.ISO_8859_1);
    return unescapeSlashes(r.target() + "\n" + head);
  }

  /** The path, with the slashes of object names unescaped. */
  static String path(Request r) {
    return unescapeSlashes(r.path());
  }

  static boolean namesAnInstantFile(Request r) {
    return path(r).matches(".*/\\.hoodie/\\d+\\.[a-z.]+$");
  }

  private static String unescapeSlashes(String s) {
    return s.replace("%2F", "/").replace("%2f", "/");
  }

  @BeforeAll
  void workAndTable() throws Exception {
    work =
        Files.createTempDirectory(
            Path.of("target").toAbsolutePath(), getClass().getSimpleName() + "-");
    reference = Reference.faults();
  }

  /** The store and a proxy in front of it, for each case: a server may be replaced meanwhile. */
  private void serverAndProxy() throws Exception {
    store = store();
    if (proxy == null || !proxy.upstream().equals(upstream(store.config()))) {
      if (proxy != null) {
        proxy.close();
      }
      proxy = new FaultProxy(upstream(store.config()));
    }
  }

  @AfterAll
  void stopProxy() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (work != null) {
      Tables.delete(work);
    }
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
  private Rule delay(int times, Predicate<Request> match, long millis) {
    AtomicInteger left = new AtomicInteger(times);
    return r -> {
      if (match.test(r) && left.getAndDecrement() > 0) {
        delayed.incrementAndGet();
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
  private Rule chaos() {
    AtomicInteger seen = new AtomicInteger();
    List<Fault> faults = List.of(Fault.DROP_BEFORE, Fault.DROP_AFTER, error(503), error(500));
    return r -> {
      int n = seen.incrementAndGet();
      return n % 4 == 0 ? faults.get((n / 4) % faults.size()) : Fault.FORWARD;
    };
  }

  private record Case(boolean shortForm, Supplier<Rule> rule) {}

  Stream<Arguments> faults() {
    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put(
        "503 on the first 5 instant reads",
        new Case(true, () -> Rule.first(5, this::instantRead, error(503))));
    cases.put(
        "429 on every instant read",
        new Case(false, () -> Rule.every(this::instantRead, error(429))));
    cases.put(
        "500 on every 50th instant read",
        new Case(false, () -> everyNth(50, this::instantRead, error(500))));
    cases.put(
        "instant reads dropped before forwarding, every 20th",
        new Case(true, () -> everyNth(20, this::instantRead, Fault.DROP_BEFORE)));
    cases.put("listings delayed 1 s", new Case(false, () -> delay(10, this::list, 1_000)));
    cases.put(
        "the archive file's write dropped before forwarding, once",
        new Case(false, () -> Rule.first(1, this::archiveWrite, Fault.DROP_BEFORE)));
    cases.put(
        "the archive file's write forwarded, its answer dropped, once",
        new Case(true, () -> Rule.first(1, this::archiveWrite, Fault.DROP_AFTER)));
    cases.put(
        "the archive file's write forwarded, its answer dropped, every time",
        new Case(false, () -> Rule.every(this::archiveWrite, Fault.DROP_AFTER)));
    cases.put(
        "500 on every write of the archive file",
        new Case(false, () -> Rule.every(this::archiveWrite, error(500))));
    cases.put(
        "the lock's write forwarded, its answer dropped, once",
        new Case(true, () -> Rule.first(1, this::lockWrite, Fault.DROP_AFTER)));
    cases.put(
        "a delete forwarded, its answer dropped, once",
        new Case(false, () -> Rule.first(1, this::delete, Fault.DROP_AFTER)));
    cases.put("503 on every delete", new Case(false, () -> Rule.every(this::delete, error(503))));
    cases.put(
        "the first 3 deletes delayed 2 s", new Case(false, () -> delay(3, this::delete, 2_000)));
    cases.put(
        "500 on every delete after the first 10 (amid the oldest-first deletes)",
        new Case(true, () -> after(10, this::delete, error(500))));
    cases.put(
        "500 on every release of the lock",
        new Case(false, () -> Rule.every(this::lockRelease, error(500))));
    cases.put("every 4th request fails, in turn four ways", new Case(true, this::chaos));
    return cases.entrySet().stream()
        .filter(e -> ALL_CASES || inShortForm(e.getKey(), e.getValue().shortForm()))
        .map(e -> Arguments.of(e.getKey(), e.getValue().rule()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("faults")
  void aFaultyRunCompletesOrFailsSafeAndALaterRunRestores(String name, Supplier<Rule> rule)
      throws Exception {
    serverAndProxy();
    StorageLocation table = store.newRoot("fault");
    StoreTables.upload(reference.pristine(), store, table);
    InvariantChecker checker = new InvariantChecker(reference.original());

    // A lock left by a failed release is the faulty run's, whose process has ended: the later run
    // takes it over at once, so the lease need not be short; a long one no delay outlasts.
    List<String> args = new ArrayList<>(List.of("archive", table.toString()));
    args.addAll(reference.options());
    args.addAll(List.of("--conf", "archive.lock.lease=" + Leases.LONG));
    new java.util.TreeMap<>(viaProxy(store.config(), proxy.endpoint()))
        .forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    int logBefore = proxy.log().size();
    int delayedBefore = delayed.get();
    proxy.rule(rule.get());
    Jar.Run faulty;
    try {
      faulty = Jar.start(work, args).await();
    } finally {
      proxy.rule(r -> Fault.FORWARD);
    }
    List<String> log = proxy.log().subList(logBefore, proxy.log().size());
    assertThat(log)
        .as("the proxy's own failures")
        .noneMatch(l -> l.startsWith(FaultProxy.PROXY_FAILED));
    long faulted =
        log.stream().filter(l -> !l.endsWith("FORWARD 0")).count() + delayed.get() - delayedBefore;
    List<String> afterFaulty = StoreTables.violations(checker, store, table);

    List<String> clean = new ArrayList<>(List.of("archive", table.toString()));
    clean.addAll(reference.options());
    clean.addAll(store.conf());
    Jar.Run restore = Jar.start(work, clean).await();
    List<String> afterRestore = StoreTables.violations(checker, store, table);
    TreeSet<String> active = new TreeSet<>(StoreTables.snapshot(store, table).keySet());
    System.out.printf(
        "%s fault '%s': %d requests faulted or delayed; faulty run exit %d (%s); violations after"
            + " it %d; later run exit %d (%s), violations after it %d%n",
        store,
        name,
        faulted,
        faulty.exitCode(),
        faulty.exitCode() == 0 ? faulty.out().strip() : faulty.errors().strip(),
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

package io.timelinearchive.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;
import io.timelinearchive.testing.FaultProxy.Rule;
import io.timelinearchive.timeline.HoodieTable;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Archival runs on S3Proxy behind a {@link FaultProxy}: a run that fails midway leaves the
 * protocol's invariants intact, and the next run finishes the work without archiving twice.
 */
class TestS3ArchivalFaults {
  private static final S3ProxyServer SERVER = S3ProxyServer.shared();
  // 100 commits and a clean after every 4th: 125 instants, 375 files
  private static final SampleTable.Spec SPEC =
      new SampleTable.Spec(100, false, 0, 4, 0, 0, false, LocalDateTime.of(2026, 2, 1, 0, 0), 9);

  private FaultProxy proxy;
  private MetaStorage direct;
  private MetaStorage faulty;
  private StorageLocation base;
  private StorageLocation meta;
  private Map<String, byte[]> original;
  private InvariantChecker checker;

  @BeforeEach
  void setUp() throws Exception {
    String bucket = SERVER.newBucket();
    base = StorageLocation.of("s3://" + bucket + "/tables/t");
    meta = base.resolve(HoodieTable.META_FOLDER);
    direct = SERVER.open(bucket, Map.of());
    original = AbstractS3ArchivalTest.writeTable(direct, base, SPEC);
    checker = new InvariantChecker(original);
    proxy = new FaultProxy(SERVER.endpoint());
    Map<String, String> config = new HashMap<>(SERVER.config());
    config.put(S3Config.ENDPOINT.key(), proxy.endpoint().toString());
    config.put(S3Config.MAX_RETRIES.key(), "1");
    faulty = new S3MetaStorageFactory().open(base, config);
  }

  @AfterEach
  void tearDown() throws IOException {
    faulty.close();
    direct.close();
    proxy.close();
  }

  private ArchiveResult archive() throws IOException {
    return archive(Clock.systemUTC());
  }

  private ArchiveResult archive(Clock clock) throws IOException {
    try (TimelineArchiver archiver =
        TimelineArchiver.create(faulty, base, Map.of(), clock, ArchiveListener.NONE)) {
      return archiver.archiveIfRequired();
    }
  }

  private void assertInvariants() throws IOException {
    assertThat(checker.check(direct, meta, meta.resolve(HoodieTable.DEFAULT_ARCHIVE_FOLDER)))
        .isEmpty();
  }

  private int activeFiles() throws IOException {
    return InvariantChecker.snapshot(direct, meta).size();
  }

  /** Lets the first {@code allowed} matching requests through, then fails all the others. */
  private static Rule failAfter(int allowed, Predicate<Request> match, Fault fault) {
    AtomicInteger seen = new AtomicInteger();
    return r -> match.test(r) && seen.incrementAndGet() > allowed ? fault : Fault.FORWARD;
  }

  @Test
  void runFailingAmongItsDeletesLeavesTheInvariantsAndTheNextRunFinishes() throws Exception {
    proxy.rule(failAfter(20, Request::isDeleteObjects, Fault.respond(503, "ServiceUnavailable")));

    assertThatThrownBy(this::archive).isInstanceOf(IOException.class);
    assertInvariants();
    int left = activeFiles();
    assertThat(left).isLessThan(375).isGreaterThan(30);

    // The failed run could not release its lock either (a DeleteObjects): the next run waits out
    // the 10-minute lease, here on a clock moved past it.
    proxy.rule(r -> Fault.FORWARD);
    ArchiveResult second = archive(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(11)));

    assertInvariants();
    assertThat(second.recovered()).isNotEmpty();
    assertThat(activeFiles()).isEqualTo(second.activeAfter()).isLessThan(left);
  }

  @Test
  void lostAnswerToTheArchiveWriteIsReadBackAndTheRunGoesOn() throws Exception {
    proxy.rule(
        Rule.first(
            1, r -> r.isPutObject() && r.path().contains(".commits_.archive."), Fault.DROP_AFTER));

    ArchiveResult result = archive();

    assertInvariants();
    assertThat(result.archived()).isNotEmpty();
    assertThat(proxy.log()).filteredOn(line -> line.contains("DROP_AFTER")).hasSize(1);
    assertThat(S3MetaStorageFactory.requestCounts(faulty).orElseThrow().get("PutObject"))
        .as("the archive file's PUT was retried")
        .isGreaterThanOrEqualTo(2);
  }

  @Test
  void archiveWriteThatNeverLandsFailsTheRunBeforeAnyDelete() throws Exception {
    proxy.rule(
        Rule.every(
            r -> r.isPutObject() && r.path().contains(".commits_.archive."),
            Fault.respond(500, "InternalError")));

    assertThatThrownBy(this::archive).isInstanceOf(IOException.class);

    assertInvariants();
    assertThat(activeFiles()).isEqualTo(375);
    assertThat(S3MetaStorageFactory.requestCounts(faulty).orElseThrow())
        .doesNotContainKey("HeadObject");

    proxy.rule(r -> Fault.FORWARD);
    assertThat(archive().archived()).isNotEmpty();
    assertInvariants();
  }

  @Test
  void unreadableInstantFileFailsTheRunBeforeAnyWrite() throws Exception {
    // the oldest completed commit: selected first, and not empty, so the archiver must read it
    String oldestCommit =
        original.keySet().stream()
            .filter(n -> n.endsWith(".commit"))
            .sorted()
            .findFirst()
            .orElseThrow();
    proxy.rule(
        Rule.every(
            r -> r.isGetObject() && r.path().endsWith("/" + oldestCommit),
            Fault.respond(500, "InternalError")));

    assertThatThrownBy(this::archive).isInstanceOf(IOException.class);

    assertInvariants();
    assertThat(activeFiles()).isEqualTo(375);
    assertThat(direct.list(meta.resolve(HoodieTable.DEFAULT_ARCHIVE_FOLDER)).toList())
        .noneMatch(e -> e.name().startsWith(".commits_.archive."));
  }
}

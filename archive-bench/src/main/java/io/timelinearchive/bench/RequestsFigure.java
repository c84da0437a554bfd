package io.timelinearchive.bench;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.RequestCounts;
import io.timelinearchive.storage.ServiceRequestCounting;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.azure.Azurite;
import io.timelinearchive.storage.azure.CountedAzureStorage;
import io.timelinearchive.storage.gcs.CountedGcsStorage;
import io.timelinearchive.storage.gcs.FakeGcsServer;
import io.timelinearchive.storage.s3.S3ProxyServer;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P2: the requests one archival run sends to S3Proxy, Azurite and fake-gcs-server, counted on the
 * wire (S3: the backend's own per-operation counts; Azure: every attempt through the SDK pipeline;
 * GCS: every request through a recording proxy), against the floor of issue 9.
 */
final class RequestsFigure {
  private static final Logger LOG = LoggerFactory.getLogger(RequestsFigure.class);

  /** A run's storage, and its wire count so far. */
  private record Counted(MetaStorage storage, Supplier<Map<String, Long>> requests) {}

  List<Row> measure(int instantFiles) throws Exception {
    SampleTable.Spec spec = Tables.spec(instantFiles);
    List<Row> rows = new ArrayList<>();
    rows.add(s3(spec));
    rows.add(azure(spec));
    rows.add(gcs(spec));
    return rows;
  }

  private Row s3(SampleTable.Spec spec) throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    StorageLocation base = StorageLocation.of("s3://" + bucket + "/warehouse/orders");
    try (MetaStorage storage = server.open(bucket, Map.of())) {
      Map<String, Long> sizes = copyTable(spec, storage, base);
      return run(
          "S3Proxy",
          1_000,
          sizes,
          base,
          new Counted(storage, () -> ServiceRequestCounting.countsOf(storage)));
    }
  }

  private Row azure(SampleTable.Spec spec) throws Exception {
    Azurite azurite = Azurite.get();
    var container = azurite.newContainer();
    try {
      StorageLocation root = Azurite.rootOf(container.getBlobContainerName());
      StorageLocation base = root.resolve("warehouse/orders");
      Map<String, Long> sizes;
      try (MetaStorage writer = MetaStorages.open(base, azurite.config())) {
        sizes = copyTable(spec, writer, base);
      }
      try (CountedAzureStorage counted = new CountedAzureStorage(root, azurite.config())) {
        return run("Azurite", 256, sizes, base, new Counted(counted, counted::requests));
      }
    } finally {
      container.delete();
    }
  }

  private Row gcs(SampleTable.Spec spec) throws Exception {
    FakeGcsServer server = FakeGcsServer.shared();
    String bucket = server.newBucket("bench");
    StorageLocation base = StorageLocation.of("gs://" + bucket + "/warehouse/orders");
    Map<String, Long> sizes;
    try (MetaStorage writer = MetaStorages.open(base, server.config())) {
      sizes = copyTable(spec, writer, base);
    }
    try (CountedGcsStorage counted =
        CountedGcsStorage.open(server, StorageLocation.of("gs://" + bucket))) {
      return run("fake-gcs-server", 100, sizes, base, new Counted(counted, counted::requests));
    }
  }

  private Row run(
      String server, int batch, Map<String, Long> sizes, StorageLocation base, Counted counted)
      throws Exception {
    Map<String, Long> before = counted.requests().get();
    ArchiveResult result;
    try (TimelineArchiver archiver =
        TimelineArchiver.create(
            counted.storage(),
            base,
            ArchivalFigure.SETTINGS,
            Clock.systemUTC(),
            ArchiveListener.NONE)) {
      result = archiver.archiveIfRequired();
    }
    Map<String, Long> wire = minus(counted.requests().get(), before);
    long total = wire.values().stream().mapToLong(Long::longValue).sum();
    List<TimelineInstant> archived = result.archived();
    long instants = archived.stream().map(TimelineInstant::key).distinct().count();
    long nonEmpty = archived.stream().filter(i -> sizes.getOrDefault(i.fileName(), 0L) > 0).count();
    long completed = archived.stream().filter(TimelineInstant::isCompleted).count();
    long pending = archived.size() - completed;
    long pendingBatches = (pending + batch - 1) / batch;
    // one listing of .hoodie/ and one archive write: the O(1) part at its least
    long floor = nonEmpty + pendingBatches + completed + 2;
    // What may run in parallel: the reads of instant files and the batches of pending deletes.
    long sequential = Math.max(0, total - nonEmpty - pendingBatches);
    double ratio = (double) total / floor;
    RequestCounts spi = result.requests();
    String note =
        String.format(
            Locale.ROOT,
            "%s wire requests %s; storage calls (SPI) %s; floor = %d GETs of non-empty files +"
                + " ⌈%d pending / %d⌉ = %d batch deletes + %d completed deletes + 1 LIST + 1 PUT;"
                + " sequential (all but the instant reads and pending batches): %d, of which %d"
                + " completed deletes (one each, oldest first, by design)",
            server,
            wire,
            spi,
            nonEmpty,
            pending,
            batch,
            pendingBatches,
            completed,
            sequential,
            completed);
    LOG.info(
        "P2 {}: {} requests for {} instants, floor {}: {}", server, total, instants, floor, note);
    return new Row(
        "P2 requests, " + server,
        Timing.count(instants) + " instants archived (" + Timing.count(archived.size()) + " files)",
        String.format(
            Locale.ROOT,
            "%,d requests (%.3f per instant; %,d sequential)",
            total,
            (double) total / instants,
            sequential),
        String.format(
            Locale.ROOT, "floor: %,d (%.3f per instant)", floor, (double) floor / instants),
        Timing.ratio(ratio),
        "≤ 1.1× floor",
        ratio <= 1.1,
        note,
        ratio);
  }

  /**
   * Writes the sample table in memory, then copies its files to {@code base} in parallel (one file
   * at a time is slow against a server).
   *
   * @return the length of each instant file, by name
   */
  static Map<String, Long> copyTable(
      SampleTable.Spec spec, MetaStorage target, StorageLocation base) throws Exception {
    StorageLocation memoryBase = StorageLocation.of("memory://" + UUID.randomUUID() + "/table");
    try (MetaStorage memory = MetaStorages.open(memoryBase, Map.of())) {
      SampleTable.write(memory, memoryBase, spec);
      StorageLocation memoryMeta = memoryBase.resolve(HoodieTable.META_FOLDER);
      List<FileEntry> files = memory.list(memoryMeta).toList();
      Map<String, Long> sizes = new HashMap<>();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<?>> copies = new ArrayList<>();
        for (FileEntry file : files) {
          byte[] content = memory.read(file.location());
          sizes.put(file.name(), (long) content.length);
          StorageLocation to = base.resolve(HoodieTable.META_FOLDER).resolve(file.name());
          copies.add(
              pool.submit(
                  () -> {
                    target.createExclusive(to, content);
                    return null;
                  }));
        }
        for (Future<?> copy : copies) {
          copy.get();
        }
      } finally {
        pool.shutdownNow();
      }
      return sizes;
    }
  }

  private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> run = new java.util.TreeMap<>();
    after.forEach(
        (operation, count) -> {
          long n = count - before.getOrDefault(operation, 0L);
          if (n != 0) {
            run.put(operation, n);
          }
        });
    return run;
  }
}

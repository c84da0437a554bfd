package io.timelinearchive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.azure.Azurite;
import io.timelinearchive.storage.gcs.FakeGcsServer;
import io.timelinearchive.storage.s3.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P2-1x: the requests one archival run of ours (the CLI jar in a JVM of its own) sends to S3Proxy,
 * Azurite and fake-gcs-server for a table Apache Hudi 1.0.1 wrote (table version 8, lengthened), as
 * its backend counted them, against the floor of a 1.x run: a GET of each non-empty archived
 * instant file, the pending files' deletes in batches, one delete per completed file (oldest
 * first), one listing of the timeline folder (its delimiter listing shows whether there is a
 * history yet) and three writes: the history file, its manifest and {@code _version_}. Should our
 * run fail, the row says it is not available, and why; the floor is then that of the files Hudi
 * 1.0.1's own archiver archives from a local copy of the table.
 */
final class Hudi1RequestsFigure {
  private static final Logger LOG = LoggerFactory.getLogger(Hudi1RequestsFigure.class);

  /** The writes that make a layer-0 history file current in 1.x: file, manifest, _version_. */
  static final int HISTORY_WRITES = 3;

  /**
   * A server's storage as this JVM reaches it (copies and listings), and the settings that reach it
   * from the CLI's JVM.
   */
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Counted(MetaStorage storage, Map<String, String> config) {}

  /** What Hudi 1.0.1 archived from a local copy: the instant files it removed, by name. */
  private record HudiSelection(Set<String> files) {}

  private final Hudi1WrittenTables tables;
  private final Hudi1Side hudi1;
  private final Path work;
  private final Path cliJar;

  Hudi1RequestsFigure(Path work, Hudi1WrittenTables tables, Hudi1Side hudi1, Path cliJar) {
    this.cliJar = HudiWrittenFigure.requireCliJar(cliJar);
    this.work = work;
    this.tables = tables;
    this.hudi1 = hudi1;
  }

  List<Row> measure(int instantFiles) throws Exception {
    Hudi1WrittenTables.Table table = tables.get(instantFiles);
    Map<String, byte[]> files = metaFiles(table.dir());
    HudiSelection hudi = hudiSelection(table);
    List<Row> rows = new ArrayList<>();
    rows.add(s3(files, hudi));
    rows.add(azure(files, hudi));
    rows.add(gcs(files, hudi));
    return rows;
  }

  private Row s3(Map<String, byte[]> files, HudiSelection hudi) throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    StorageLocation base = StorageLocation.of("s3://" + bucket + "/warehouse/trips");
    try (MetaStorage storage = server.open(bucket, Map.of())) {
      copy(files, storage, base);
      return run("S3Proxy", 1_000, files, hudi, base, new Counted(storage, server.config()));
    }
  }

  private Row azure(Map<String, byte[]> files, HudiSelection hudi) throws Exception {
    Azurite azurite = Azurite.get();
    var container = azurite.newContainer();
    try {
      StorageLocation root = Azurite.rootOf(container.getBlobContainerName());
      StorageLocation base = root.resolve("warehouse/trips");
      try (MetaStorage writer = MetaStorages.open(base, azurite.config())) {
        copy(files, writer, base);
      }
      try (MetaStorage storage = MetaStorages.open(base, azurite.config())) {
        return run("Azurite", 256, files, hudi, base, new Counted(storage, azurite.config()));
      }
    } finally {
      container.delete();
    }
  }

  private Row gcs(Map<String, byte[]> files, HudiSelection hudi) throws Exception {
    FakeGcsServer server = FakeGcsServer.shared();
    String bucket = server.newBucket("bench");
    StorageLocation base = StorageLocation.of("gs://" + bucket + "/warehouse/trips");
    try (MetaStorage writer = MetaStorages.open(base, server.config())) {
      copy(files, writer, base);
    }
    try (MetaStorage storage = MetaStorages.open(base, server.config())) {
      return run("fake-gcs-server", 100, files, hudi, base, new Counted(storage, server.config()));
    }
  }

  private Row run(
      String server,
      int batch,
      Map<String, byte[]> files,
      HudiSelection hudi,
      StorageLocation base,
      Counted counted)
      throws Exception {
    // ours is the CLI jar in a JVM of its own (archive-lsm's Parquet and the bench's Hudi 0.15 do
    // not share a class path); the requests are those its backend counted, as its report gives them
    ChildJvm.Outcome o =
        ChildJvm.runCli(
            cliJar,
            HudiWrittenFigure.cliArchive(base.toString(), counted.config()),
            work.resolve("p2-1x-logs"));
    Map<String, Long> wire = new TreeMap<>();
    JsonNode result = null;
    String unavailable = null;
    if (o.exit() == 0) {
      result = JSON.readTree(o.stdout());
      result
          .path("serviceRequests")
          .fields()
          .forEachRemaining(e -> wire.put(e.getKey(), e.getValue().asLong()));
    } else {
      unavailable =
          "exit " + o.exit() + ": " + o.stderr().strip().replace(base.toString(), "TABLE");
      LOG.warn("P2-1x {}: ours not available: {}", server, unavailable);
    }
    long total = wire.values().stream().mapToLong(Long::longValue).sum();
    // the floor of what ours archived, or (ours not running) of what Hudi 1.0.1 archives
    Set<String> archived = new TreeSet<>();
    String timeline = ".hoodie/timeline/";
    if (result != null) {
      // the instant files ours deleted: listed after the run (its requests are counted above),
      // since a 1.x file's name holds a completion time that ArchiveResult's instants do not
      Set<String> after = new TreeSet<>();
      for (FileEntry f :
          counted.storage().list(base.resolve(".hoodie").resolve("timeline")).toList()) {
        after.add(f.name());
      }
      for (String path : files.keySet()) {
        String name = path.startsWith(timeline) ? path.substring(timeline.length()) : "";
        if (!name.isEmpty() && !name.contains("/") && !after.contains(name)) {
          archived.add(name);
        }
      }
    } else {
      archived.addAll(hudi.files());
    }
    long nonEmpty =
        archived.stream()
            .filter(n -> files.getOrDefault(timeline + n, new byte[0]).length > 0)
            .count();
    long completed = archived.stream().filter(Hudi1RequestsFigure::isCompleted).count();
    long instants = completed;
    long pending = archived.size() - completed;
    long pendingBatches = (pending + batch - 1) / batch;
    long floor = nonEmpty + pendingBatches + completed + 1 + HISTORY_WRITES;
    String floorNote =
        String.format(
            Locale.ROOT,
            "floor (of the files %s archived) = %d GETs of non-empty files + ⌈%d pending / %d⌉ ="
                + " %d batch deletes + %d completed deletes + 1 LIST + %d PUTs (history file,"
                + " manifest, _version_)",
            result != null ? "ours" : "Hudi 1.0.1",
            nonEmpty,
            pending,
            batch,
            pendingBatches,
            completed,
            HISTORY_WRITES);
    String size =
        "Hudi 1.0.1-written (table version 8), "
            + Timing.count(instants)
            + " instants archived ("
            + Timing.count(archived.size())
            + " files)";
    String comparator =
        String.format(
            Locale.ROOT, "floor: %,d (%.3f per instant)", floor, (double) floor / instants);
    if (result == null) {
      LOG.info("P2-1x {}: ours not available; {}", server, floorNote);
      return new Row(
          "P2-1x requests, " + server,
          size,
          "not available (" + unavailable + ")",
          comparator,
          "—",
          "≤ 1.1× floor",
          null,
          String.format(
              Locale.ROOT,
              "%s: ours refused the table after %,d wire requests %s; %s",
              server,
              total,
              wire,
              floorNote),
          Double.NaN);
    }
    long sequential = Math.max(0, total - nonEmpty - pendingBatches);
    double ratio = (double) total / floor;
    String note =
        String.format(
            Locale.ROOT,
            "%s wire requests as the CLI's backend counted them %s; storage calls (SPI) %s; %s;"
                + " sequential (all but the instant"
                + " reads and pending batches): %d, of which %d completed deletes",
            server,
            wire,
            result.path("requests"),
            floorNote,
            sequential,
            completed);
    LOG.info("P2-1x {}: {} requests, floor {}: {}", server, total, floor, note);
    return new Row(
        "P2-1x requests, " + server,
        size,
        String.format(
            Locale.ROOT,
            "%,d requests (%.3f per instant; %,d sequential)",
            total,
            (double) total / instants,
            sequential),
        comparator,
        Timing.ratio(ratio),
        "≤ 1.1× floor",
        ratio <= 1.1,
        note,
        ratio);
  }

  /**
   * Whether an instant file name is a completed one ({@code <requested>_<completion>.<action>}).
   */
  static boolean isCompleted(String name) {
    return name.length() > 35 && name.charAt(17) == '_' && name.charAt(35) == '.';
  }

  /** Hudi 1.0.1's archiver on a local copy of {@code table}: the files it archived. */
  private HudiSelection hudiSelection(Hudi1WrittenTables.Table table) throws Exception {
    Path copy = work.resolve("p2x-hudi-selection");
    Tables.delete(copy);
    Tables.copy(table.dir(), copy);
    Set<String> before = Hudi1WrittenFigure.activeFiles(copy);
    hudi1.archive(copy, work.resolve("p2x-logs"));
    Set<String> after = Hudi1WrittenFigure.activeFiles(copy);
    Tables.delete(copy);
    Set<String> archived = new TreeSet<>(before);
    archived.removeAll(after);
    if (archived.isEmpty()) {
      throw new IllegalStateException("Hudi 1.0.1's archiver archived nothing of " + table.dir());
    }
    return new HudiSelection(archived);
  }

  /**
   * The files of {@code table}'s {@code .hoodie/} folder (Hadoop's checksums aside) by path
   * relative to the table, as an object store would hold them.
   */
  static Map<String, byte[]> metaFiles(Path table) throws Exception {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(table.resolve(".hoodie"))) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        if (!f.getFileName().toString().endsWith(".crc")) {
          files.put(table.relativize(f).toString(), Files.readAllBytes(f));
        }
      }
    }
    return files;
  }

  /** Copies {@code files} under {@code base} in parallel (one at a time is slow on a server). */
  static void copy(Map<String, byte[]> files, MetaStorage target, StorageLocation base)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> copies = new ArrayList<>();
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        StorageLocation to = base;
        for (String part : file.getKey().split("/")) {
          to = to.resolve(part);
        }
        StorageLocation location = to;
        copies.add(
            pool.submit(
                () -> {
                  target.createExclusive(location, file.getValue());
                  return null;
                }));
      }
      for (Future<?> copy : copies) {
        copy.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}

package io.timelinearchive.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.timelinearchive.cli.TimelineArchiveCommand;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.s3.S3ProxyServer;
import io.timelinearchive.timeline.InstantFileName;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code archive-all} over a warehouse of 200 small tables on S3Proxy, through the command itself:
 * tables one to three folders deep, a folder of data files, a table below the default depth and one
 * whose {@code hoodie.properties} is corrupt. With {@code -Darchive-all.throughput=true} it also
 * measures tables per second at parallelism 1, 8 and 32 on S3Proxy and on local disk.
 */
class TestArchiveAllOnS3Proxy {
  private static final Logger LOG = LoggerFactory.getLogger(TestArchiveAllOnS3Proxy.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int TABLES = 200;

  /** 24 instant files: 6 commits and 2 cleans. */
  private static final SampleTable.Spec SMALL = SampleTable.Spec.ofSize(30, 7);

  private static final List<String> SETTINGS =
      List.of("--min", "2", "--max", "4", "--conf", "hoodie.cleaner.commits.retained=1");

  @TempDir Path local;

  private record Run(int exitCode, List<JsonNode> lines, String err) {
    Map<String, JsonNode> byTable() {
      Map<String, JsonNode> tables = new HashMap<>();
      for (JsonNode line : lines) {
        assertThat(line.get("schemaVersion").asInt()).isEqualTo(1);
        if (line.get("kind").asText().equals("table")) {
          assertThat(tables.put(line.get("table").asText(), line)).isNull();
        }
      }
      return tables;
    }

    JsonNode total() {
      JsonNode total = lines.get(lines.size() - 1);
      assertThat(total.get("kind").asText()).isEqualTo("total");
      return total;
    }
  }

  private static Run archiveAll(StorageLocation base, Map<String, String> conf, String... more)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("archive-all", base.toString(), "--json"));
    args.addAll(SETTINGS);
    conf.forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    args.addAll(List.of(more));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        TimelineArchiveCommand.run(
            args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    List<JsonNode> lines = new ArrayList<>();
    for (String line : out.toString().lines().toList()) {
      lines.add(JSON.readTree(line));
    }
    return new Run(code, lines, err.toString());
  }

  private static List<String> tablePaths() {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < TABLES; i++) {
      paths.add(
          switch (i % 3) {
            case 0 -> String.format(Locale.ROOT, "t%03d", i);
            case 1 -> String.format(Locale.ROOT, "db%d/t%03d", i % 4, i);
            default -> String.format(Locale.ROOT, "r%d/db%d/t%03d", i % 2, i % 5, i);
          });
    }
    return paths;
  }

  /**
   * Writes the warehouse: copies of one sample table, written 8 at a time, and with {@code extras}
   * the data folder, the table below the depth and the broken one.
   */
  private static int writeWarehouse(MetaStorage storage, StorageLocation base, boolean extras)
      throws Exception {
    Map<String, byte[]> template = template();
    List<String> tables = new ArrayList<>(tablePaths());
    if (extras) {
      tables.add("deep/a/b/t-deep");
      tables.add("broken");
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (String table : tables) {
        for (Map.Entry<String, byte[]> file : template.entrySet()) {
          done.add(
              pool.submit(
                  () -> {
                    storage.createExclusive(
                        base.resolve(table).resolve(file.getKey()), file.getValue());
                    return null;
                  }));
        }
      }
      for (Future<Void> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    if (extras) {
      storage.createExclusive(
          base.resolve("not-a-table/dt=2026-01-01/part-0.parquet"), new byte[] {1});
      StorageLocation properties = base.resolve("broken/.hoodie/hoodie.properties");
      storage.deleteAll(List.of(properties));
      storage.createExclusive(properties, "hoodie.table.version=banana\n".getBytes(UTF_8));
    }
    return template.size() - 1; // instant files: all but hoodie.properties
  }

  /** The files of one sample table, by path below its base. */
  private static Map<String, byte[]> template() throws IOException {
    StorageLocation base =
        StorageLocation.of("memory://archive-all-template-" + System.nanoTime() + "/t");
    Map<String, byte[]> files = new HashMap<>();
    try (MetaStorage memory = MetaStorages.open(base, Map.of())) {
      SampleTable.write(memory, base, SMALL);
      for (FileEntry f : memory.list(base.resolve(".hoodie")).toList()) {
        files.put(".hoodie/" + f.name(), memory.read(f.location()));
      }
    }
    return files;
  }

  private static int instantFiles(MetaStorage storage, StorageLocation table) throws IOException {
    int n = 0;
    for (FileEntry f : storage.list(table.resolve(".hoodie")).toList()) {
      if (InstantFileName.parse(f.name()) instanceof InstantFileName.Result.Parsed) {
        n++;
      }
    }
    return n;
  }

  @Test
  void archivesTwoHundredTablesAndReportsTheBrokenOne() throws Exception {
    S3ProxyServer s3 = S3ProxyServer.shared();
    StorageLocation base = StorageLocation.of("s3://" + s3.newBucket() + "/warehouse");
    try (MetaStorage storage = MetaStorages.open(base, s3.config())) {
      int before = writeWarehouse(storage, base, true);

      Run run = archiveAll(base, s3.config());

      assertThat(run.exitCode()).as("the broken table's exit code; %s", run.err()).isEqualTo(3);
      Map<String, JsonNode> byTable = run.byTable();
      assertThat(byTable).hasSize(TABLES + 1);
      JsonNode broken = byTable.get(base.resolve("broken").toString());
      assertThat(broken.get("exitCode").asInt()).isEqualTo(3);
      assertThat(broken.get("error").asText()).contains("hoodie.properties", "banana");
      Integer archived = null;
      for (String path : tablePaths()) {
        StorageLocation table = base.resolve(path);
        JsonNode line = byTable.get(table.toString());
        assertThat(line.get("exitCode").asInt()).as(path).isZero();
        if (archived == null) {
          archived = line.get("instants").asInt();
          assertThat(archived).isPositive();
        }
        assertThat(line.get("instants").asInt()).as(path).isEqualTo(archived);
        assertThat(storage.list(table.resolve(".hoodie/archived")).toList())
            .as(path)
            .singleElement()
            .satisfies(f -> assertThat(f.name()).startsWith(".commits_.archive."))
            .satisfies(f -> assertThat(f.length()).isPositive());
        int left = instantFiles(storage, table);
        assertThat(left).as(path).isLessThan(before).isEqualTo(line.get("activeAfter").asInt());
      }
      StorageLocation deep = base.resolve("deep/a/b/t-deep");
      assertThat(instantFiles(storage, deep)).isEqualTo(before);
      assertThat(storage.list(deep.resolve(".hoodie/archived")).hasNext()).isFalse();
      JsonNode total = run.total();
      assertThat(total.get("ok").asInt()).isEqualTo(TABLES);
      assertThat(total.get("failed").asInt()).isEqualTo(1);
      assertThat(total.get("instants").asInt()).isEqualTo(archived * TABLES);
    }
  }

  /** Tables per second at parallelism 1, 8 and 32, on S3Proxy and on local disk. */
  @Test
  void throughput() throws Exception {
    assumeTrue(Boolean.getBoolean("archive-all.throughput"), "-Darchive-all.throughput=true");
    S3ProxyServer s3 = S3ProxyServer.shared();
    List<String> rows = new ArrayList<>();
    for (int parallelism : List.of(1, 8, 32)) {
      StorageLocation onS3 = StorageLocation.of("s3://" + s3.newBucket() + "/warehouse");
      rows.add(measure("S3Proxy", onS3, s3.config(), parallelism));
      StorageLocation onDisk =
          StorageLocation.of(local.resolve("p" + parallelism).toAbsolutePath().toString());
      rows.add(measure("local disk", onDisk, Map.of(), parallelism));
    }
    // Every table goes through one S3 client, whose connection pool (s3.request-parallelism,
    // default 16) 32 tables at once outnumber.
    Map<String, String> widerPool = new HashMap<>(s3.config());
    widerPool.put("s3.request-parallelism", "64");
    StorageLocation wide = StorageLocation.of("s3://" + s3.newBucket() + "/warehouse");
    rows.add(measure("S3Proxy, s3.request-parallelism=64", wide, widerPool, 32));
    String table =
        "| store | tables | parallelism | seconds | tables/s |\n|---|---|---|---|---|\n"
            + String.join("\n", rows)
            + "\n";
    LOG.info(
        "archive-all throughput ({} cores):\n{}",
        Runtime.getRuntime().availableProcessors(),
        table);
    Files.writeString(Path.of("target", "archive-all-throughput.md"), table, UTF_8);
  }

  private static String measure(
      String store, StorageLocation base, Map<String, String> conf, int parallelism)
      throws Exception {
    try (MetaStorage storage = MetaStorages.open(base, conf)) {
      writeWarehouse(storage, base, false);
    }
    Run run = archiveAll(base, conf, "--parallelism", Integer.toString(parallelism));
    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode total = run.total();
    assertThat(total.get("ok").asInt()).isEqualTo(TABLES);
    return String.format(
        Locale.ROOT,
        "| %s | %d | %d | %.1f | %.1f |",
        store,
        TABLES,
        parallelism,
        total.get("durationMillis").asLong() / 1000.0,
        total.get("tablesPerSecond").asDouble());
  }
}

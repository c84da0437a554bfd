package io.timelinearchive.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.timelinearchive.sample.SampleTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code archive-all} and {@code plan-all} on a warehouse on local disk: 200 small tables one to
 * three folders deep, a folder of data files that is no table, a table four folders deep (below the
 * default depth) and a table whose {@code hoodie.properties} is corrupt.
 */
class TestArchiveAll {
  private static final int TABLES = 200;

  @TempDir static Path template;
  @TempDir static Path scratch;
  private static final List<String> tables = new ArrayList<>();
  private static SampleTable.Written written;

  @BeforeAll
  static void writeTemplate() throws IOException {
    written = Tables.write(template, Tables.SMALL);
    for (int i = 0; i < TABLES; i++) {
      tables.add(
          switch (i % 3) {
            case 0 -> String.format("t%03d", i);
            case 1 -> String.format("db%d/t%03d", i % 4, i);
            default -> String.format("r%d/db%d/t%03d", i % 2, i % 5, i);
          });
    }
  }

  /** A fresh warehouse below a new folder of {@code scratch}. */
  private static Path warehouse(String name) throws IOException {
    Path base = scratch.resolve(name);
    for (String table : tables) {
      copyTable(base.resolve(table));
    }
    Path data = base.resolve("not-a-table/dt=2026-01-01");
    Files.createDirectories(data);
    Files.write(data.resolve("part-0.parquet"), new byte[] {1, 2, 3});
    copyTable(base.resolve("deep/a/b/t-deep"));
    copyTable(base.resolve("broken"));
    Files.writeString(
        base.resolve("broken/.hoodie/hoodie.properties"), "hoodie.table.version=banana\n", UTF_8);
    return base;
  }

  private static void copyTable(Path target) throws IOException {
    try (Stream<Path> walk = Files.walk(template)) {
      for (Path p : walk.toList()) {
        Path to = target.resolve(template.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }
  }

  private static String[] args(String command, Path base, String... more) {
    List<String> all = new ArrayList<>(List.of(command, base.toString()));
    all.addAll(Tables.AGGRESSIVE);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  private static Map<String, JsonNode> byTable(Cli.Run run) {
    Map<String, JsonNode> lines = new HashMap<>();
    for (String line : run.outLines()) {
      JsonNode node = Cli.parse(line);
      assertThat(node.get("schemaVersion").asInt()).isEqualTo(1);
      if (node.get("kind").asText().equals("table")) {
        assertThat(lines.put(node.get("table").asText(), node)).as("one line per table").isNull();
      }
    }
    return lines;
  }

  private static JsonNode total(Cli.Run run) {
    List<String> lines = run.outLines();
    JsonNode total = Cli.parse(lines.get(lines.size() - 1));
    assertThat(total.get("kind").asText()).isEqualTo("total");
    return total;
  }

  private static String uri(Path table) {
    return "file:///" + table.toAbsolutePath().toString().substring(1);
  }

  @Test
  void archivesEveryTableAndReportsTheBrokenOneWhileTheOthersGoOn() throws Exception {
    Path base = warehouse("all");

    Cli.Run run = Cli.run(args("archive-all", base, "--json"));

    assertThat(run.exitCode())
        .as("the broken table's bad input; stderr: %s", run.err())
        .isEqualTo(3);
    Map<String, JsonNode> lines = byTable(run);
    assertThat(lines).hasSize(TABLES + 1);
    JsonNode broken = lines.get(uri(base.resolve("broken")));
    assertThat(broken.get("exitCode").asInt()).isEqualTo(3);
    assertThat(broken.get("error").asText()).contains("hoodie.properties", "banana");
    int before = written.files().size();
    for (String table : tables) {
      Path dir = base.resolve(table);
      JsonNode line = lines.get(uri(dir));
      assertThat(line.get("exitCode").asInt()).as(table).isZero();
      assertThat(line.get("instants").asInt()).as(table).isEqualTo(13);
      assertThat(Files.size(Tables.archiveFile(dir, 1))).as(table).isPositive();
      int left = Tables.activeInstants(dir).size();
      assertThat(left).as(table).isLessThan(before);
      assertThat(line.get("activeAfter").asInt()).as(table).isEqualTo(left);
    }
    assertThat(Tables.activeInstants(base.resolve("deep/a/b/t-deep"))).hasSize(before);
    assertThat(Files.exists(base.resolve("deep/a/b/t-deep/.hoodie/archived"))).isFalse();
    JsonNode total = total(run);
    assertThat(total.get("tables").asInt()).isEqualTo(TABLES + 1);
    assertThat(total.get("ok").asInt()).isEqualTo(TABLES);
    assertThat(total.get("failed").asInt()).isEqualTo(1);
    assertThat(total.get("instants").asInt()).isEqualTo(13 * TABLES);
    assertThat(total.get("exitCode").asInt()).isEqualTo(3);
  }

  @Test
  void planAllChangesNothingAndDepthReachesTheDeepTable() throws Exception {
    Path base = warehouse("plan");
    SortedMap<String, String> before = Tables.snapshot(base);

    Cli.Run shallow = Cli.run(args("plan-all", base, "--json", "--parallelism", "1"));
    Cli.Run deep = Cli.run(args("plan-all", base, "--json", "--depth", "4"));

    assertThat(Tables.snapshot(base)).isEqualTo(before);
    assertThat(byTable(shallow))
        .hasSize(TABLES + 1)
        .doesNotContainKey(uri(base.resolve("deep/a/b/t-deep")));
    Map<String, JsonNode> deepLines = byTable(deep);
    assertThat(deepLines).hasSize(TABLES + 2);
    JsonNode deepTable = deepLines.get(uri(base.resolve("deep/a/b/t-deep")));
    assertThat(deepTable.get("instants").asInt()).isEqualTo(13);
    assertThat(total(deep).get("instants").asInt()).isEqualTo(13 * (TABLES + 1));
  }

  @Test
  void tableConfOverridesTheCommonSettingsOfOneTable() throws Exception {
    Path base = scratch.resolve("conf");
    copyTable(base.resolve("db/kept"));
    copyTable(base.resolve("db/other"));
    Path conf = scratch.resolve("tables.conf");
    Files.writeString(
        conf,
        "# keep more of this one\n[db/kept]\nhoodie.keep.min.commits = 8\nhoodie.keep.max.commits=9\n\n["
            + uri(base.resolve("db/gone"))
            + "]\narchive.max-instants-per-run=1\n",
        UTF_8);

    Cli.Run run = Cli.ok(args("archive-all", base, "--table-conf", conf.toString()));

    assertThat(run.outLines())
        .anyMatch(l -> l.startsWith(uri(base.resolve("db/kept")) + ": archived 4 instant(s)"))
        .anyMatch(l -> l.startsWith(uri(base.resolve("db/other")) + ": archived 13 instant(s)"))
        .last()
        .satisfies(
            l ->
                assertThat(l)
                    .startsWith(
                        "2 table(s) below "
                            + uri(base)
                            + ": 2 ok, 0 failed; 17 instant(s) archived;"));
    assertThat(run.err()).contains("warning: --table-conf names " + uri(base.resolve("db/gone")));
  }

  @Test
  void aBadTableConfIsAUsageErrorNamingFileAndLine() throws Exception {
    Path base = scratch.resolve("bad-conf");
    copyTable(base.resolve("t"));
    SortedMap<String, String> before = Tables.snapshot(base);
    Path storageKey = scratch.resolve("storage.conf");
    Files.writeString(storageKey, "[t]\ns3.region=eu-west-1\n", UTF_8);
    Path misspelt = scratch.resolve("misspelt.conf");
    Files.writeString(misspelt, "[t]\narchive.max-instants-per-rum=1\n", UTF_8);
    Path orphan = scratch.resolve("orphan.conf");
    Files.writeString(orphan, "hoodie.keep.min.commits=3\n", UTF_8);

    Cli.Run storage = Cli.run(args("archive-all", base, "--table-conf", storageKey.toString()));
    Cli.Run typo = Cli.run(args("archive-all", base, "--table-conf", misspelt.toString()));
    Cli.Run noSection = Cli.run(args("archive-all", base, "--table-conf", orphan.toString()));

    assertThat(storage.exitCode()).isEqualTo(2);
    assertThat(storage.err()).contains(storageKey + " line 2: s3.region is a storage setting");
    assertThat(typo.exitCode()).isEqualTo(2);
    assertThat(typo.err()).contains(misspelt.toString(), "archive.max-instants-per-rum");
    assertThat(noSection.exitCode()).isEqualTo(2);
    assertThat(noSection.err()).contains(orphan + " line 1: a setting before any [TABLE] section");
    assertThat(Tables.snapshot(base)).isEqualTo(before);
  }

  @Test
  void textPrintsALinePerTableAndTheTotal() throws Exception {
    Path base = scratch.resolve("text");
    copyTable(base.resolve("a"));
    copyTable(base.resolve("b/c"));

    Cli.Run run = Cli.ok(args("archive-all", base, "--parallelism", "2"));

    assertThat(run.outLines()).hasSize(3);
    assertThat(run.outLines().subList(0, 2))
        .allMatch(
            l ->
                l.matches(
                    ".*: archived 13 instant\\(s\\) \\(\\d+ file\\(s\\)\\), instant files 51 -> \\d+;"
                        + " selection stopped: keeping min commits \\(2\\); \\d+ ms"));
    assertThat(run.outLines().get(2))
        .matches(
            "2 table\\(s\\) below .*: 2 ok, 0 failed; 26 instant\\(s\\) archived; 4 folder"
                + " listing\\(s\\); [0-9.]+ s, [0-9.]+ tables/s");
  }

  @Test
  void outOfRangeOptionsAreUsageErrors() throws Exception {
    Path base = scratch.resolve("options");
    Files.createDirectories(base);

    assertThat(Cli.run("archive-all", base.toString(), "--parallelism", "0").exitCode())
        .isEqualTo(2);
    assertThat(Cli.run("plan-all", base.toString(), "--depth", "-1").exitCode()).isEqualTo(2);
  }

  @Test
  void aFolderWithoutTablesIsBadInput() throws Exception {
    Path base = scratch.resolve("empty");
    copyTable(base.resolve("a/b/c/too-deep"));

    Cli.Run run = Cli.run("archive-all", base.toString(), "--depth", "2");

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err())
        .contains(
            "error: no Hudi table (a folder holding .hoodie/) below "
                + uri(base)
                + " down to --depth 2");
    assertThat(run.outLines()).singleElement().asString().startsWith("0 table(s) below ");
  }

  @Test
  void theWorstExitCodeWins() {
    assertThat(WarehouseRun.worse(0, 4)).isEqualTo(4);
    assertThat(WarehouseRun.worse(4, 3)).isEqualTo(3);
    assertThat(WarehouseRun.worse(3, 2)).isEqualTo(2);
    assertThat(WarehouseRun.worse(1, 2)).isEqualTo(1);
    assertThat(WarehouseRun.worse(0, 0)).isZero();
  }
}

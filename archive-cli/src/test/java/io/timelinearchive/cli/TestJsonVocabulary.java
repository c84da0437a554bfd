package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command's JSON speaks one vocabulary, and a failure under --json is JSON too. */
class TestJsonVocabulary {
  @TempDir Path dir;

  /** The command under --json with settings that archive part of {@link Tables#SMALL}. */
  private static JsonNode aggressive(String... args) {
    List<String> all = new java.util.ArrayList<>(List.of("--json"));
    all.addAll(List.of(args));
    all.addAll(Tables.AGGRESSIVE);
    return Cli.ok(all.toArray(String[]::new)).json();
  }

  @Test
  void everyCommandCarriesTheSchemaVersionAndTheTable() throws Exception {
    Path table = dir.resolve("t");
    Tables.write(table, Tables.SMALL);
    String uri = table.toString();
    String restoreFrom;

    List<JsonNode> outputs =
        new java.util.ArrayList<>(
            List.of(
                aggressive("plan", uri),
                aggressive("archive", uri, "--dry-run"),
                aggressive("archive", uri),
                Cli.ok("--json", "show", "active", uri).json(),
                Cli.ok("--json", "show", "archived", uri).json(),
                Cli.ok("--json", "unlock", uri, "--owner", "nobody").json()));
    JsonNode archivedFiles = outputs.get(4).get("instantFiles");
    // the newest archived instant: restoring it leaves no hole
    restoreFrom = archivedFiles.get(archivedFiles.size() - 1).get("time").asText();
    outputs.add(
        Cli.ok("--json", "unarchive", uri, "--from", restoreFrom, "--to", restoreFrom, "--force")
            .json());
    outputs.add(Cli.ok("--json", "demo", dir.resolve("demo").toString()).json());
    outputs.add(Cli.ok("--json", "demo", "--no-archive", dir.resolve("demo2").toString()).json());

    for (JsonNode json : outputs) {
      assertThat(json.get("schemaVersion").asInt()).as("%s", json).isEqualTo(1);
      assertThat(json.get("table").asText()).as("%s", json).isNotEmpty();
      assertThat(json.has("dryRun") ? json.get("dryRun").asBoolean() : true)
          .as("dryRun only when true: %s", json)
          .isTrue();
    }
  }

  @Test
  void instantsIsTheCountOfInstantsAndInstantFilesTheListEverywhere() throws Exception {
    Path table = dir.resolve("t");
    Tables.write(table, Tables.SMALL);
    String uri = table.toString();

    JsonNode plan = aggressive("plan", uri);
    JsonNode archive = aggressive("archive", uri);
    JsonNode archived = Cli.ok("--json", "show", "archived", uri).json();
    JsonNode active = Cli.ok("--json", "show", "active", uri).json();

    for (JsonNode json : List.of(plan, archive, archived, active)) {
      assertThat(json.get("instantFiles").isArray()).as("%s", json).isTrue();
      assertThat(json.get("instants").isNumber()).as("%s", json).isTrue();
      assertThat(json.get("instants").asInt()).isLessThanOrEqualTo(json.get("instantFiles").size());
    }
    assertThat(archive.get("instants")).isEqualTo(plan.get("instants"));
    assertThat(archived.get("instants")).isEqualTo(plan.get("instants"));
    assertThat(archived.get("instantFiles")).hasSameSizeAs(plan.get("instantFiles"));
  }

  @Test
  void noCommandUsesAVocabularyNameForSomethingElseAtAnyDepth() throws Exception {
    Path warehouse = dir.resolve("warehouse");
    Tables.write(warehouse.resolve("a"), Tables.SMALL);
    Tables.write(warehouse.resolve("b"), Tables.SMALL);
    String base = warehouse.toString();
    Tables.write(dir.resolve("t"), Tables.SMALL);
    String uri = dir.resolve("t").toString();

    List<JsonNode> outputs = new java.util.ArrayList<>();
    outputs.add(aggressive("plan", uri));
    outputs.add(Cli.ok("--json", "demo", dir.resolve("demo").toString()).json());
    for (String command : List.of("plan-all", "archive-all")) {
      List<String> args = new java.util.ArrayList<>(List.of("--json", command, base));
      args.addAll(Tables.AGGRESSIVE);
      List<String> lines = Cli.ok(args.toArray(String[]::new)).outLines();
      assertThat(lines).as(command + ": two tables and the total").hasSize(3);
      lines.forEach(line -> outputs.add(Cli.parse(line)));
    }

    for (JsonNode json : outputs) {
      assertThat(json.get("schemaVersion").asInt()).as("%s", json).isEqualTo(1);
      assertNamesKeepTheirMeaning(json, json);
    }
    assertThat(outputs.get(outputs.size() - 1).get("instants").asInt())
        .as("archive-all's total")
        .isEqualTo(2 * outputs.get(0).get("instants").asInt());
  }

  /** {@code instants} is a count and {@code instantFiles} a list wherever they appear. */
  private static void assertNamesKeepTheirMeaning(JsonNode node, JsonNode output) {
    if (node.has("instants")) {
      assertThat(node.get("instants").isNumber()).as("instants in %s", output).isTrue();
    }
    if (node.has("instantFiles")) {
      assertThat(node.get("instantFiles").isArray()).as("instantFiles in %s", output).isTrue();
    }
    node.elements().forEachRemaining(child -> assertNamesKeepTheirMeaning(child, output));
  }

  @Test
  void underJsonAFailureIsJsonOnStandardOutputTooWithItsExitCode() {
    Cli.Run missing = Cli.run("--json", "plan", dir.resolve("missing").toString());
    Cli.Run usage = Cli.run("--json", "plan", dir.toString(), "--min", "many");

    for (Cli.Run run : List.of(missing, usage)) {
      JsonNode json = run.json();
      assertThat(json.get("schemaVersion").asInt()).isEqualTo(1);
      assertThat(json.get("exitCode").asInt()).isEqualTo(run.exitCode());
      assertThat(run.err()).contains("error: " + json.get("error").asText());
    }
    assertThat(missing.exitCode()).isEqualTo(3);
    assertThat(usage.exitCode()).isEqualTo(2);
  }

  @Test
  void withoutJsonAFailureLeavesStandardOutputEmpty() {
    Cli.Run run = Cli.run("plan", dir.resolve("missing").toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
  }
}

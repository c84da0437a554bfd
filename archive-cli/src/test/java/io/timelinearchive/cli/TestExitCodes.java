package io.timelinearchive.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.timelinearchive.sample.SampleTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 0 ok, 1 unexpected failure, 2 usage error, 3 bad input, 4 lock held; no stack trace unless asked.
 */
class TestExitCodes {
  @TempDir Path table;

  private static String[] args(String... args) {
    return args;
  }

  private static String[] with(List<String> extra, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(extra);
    return all.toArray(String[]::new);
  }

  private static void assertUsageError(Cli.Run run, String firstErrorLine) {
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).first().isEqualTo(firstErrorLine);
    assertThat(run.hasStackTrace()).isFalse();
  }

  @Test
  void anUnknownOptionIsAUsageErrorWithTheSynopsis() throws Exception {
    Tables.write(table, Tables.SMALL);

    Cli.Run run = Cli.run("archive", table.toString(), "--minimum", "3");

    assertUsageError(run, "error: Unknown options: '--minimum', '3'");
    assertThat(run.err()).contains("Usage: timeline-archive archive ").contains("TABLE_URI");
  }

  @Test
  void aMissingTableUriIsAUsageError() {
    for (String command : List.of("archive", "plan")) {
      assertUsageError(Cli.run(command), "error: Missing required parameter: 'TABLE_URI'");
    }
    assertUsageError(
        Cli.run("show", "archived", "--details"), "error: Missing required parameter: 'TABLE_URI'");
  }

  @Test
  void anUnknownCommandIsAUsageError() {
    Cli.Run run = Cli.run("archives", "/tmp/x");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines())
        .first()
        .isEqualTo("error: Unmatched arguments from index 0: 'archives', '/tmp/x'");
    assertThat(run.err()).contains("archive");
  }

  @ParameterizedTest
  @ValueSource(strings = {"archive", "plan"})
  void settingsOutOfRangeAreUsageErrorsNamingTheKey(String command) throws Exception {
    Tables.write(table, Tables.SMALL);
    SortedMap<String, String> before = Tables.snapshot(table);
    String t = table.toString();

    assertUsageError(
        Cli.run(command, t, "--min", "30", "--max", "20"),
        "error: hoodie.keep.min.commits=30 must be less than hoodie.keep.max.commits=20");
    assertUsageError(
        Cli.run(command, t, "--batch", "0"),
        "error: hoodie.commits.archival.batch='0' must be at least 1");
    assertUsageError(
        Cli.run(command, t, "--conf", "hoodie.keep.min.commits=abc"),
        "error: hoodie.keep.min.commits='abc' is not a whole number");
    assertUsageError(
        Cli.run(command, t, "--conf", "archive.read.parallelism=0"),
        "error: archive.read.parallelism='0' must be from 1 to 256");
    assertUsageError(
        Cli.run(command, t, "--min", "many"),
        "error: Invalid value for option '--min': 'many' is not an int");
    assertUsageError(
        Cli.run(command, t, "--conf", "hoodie.keep.min.commits"),
        "error: invalid --conf 'hoodie.keep.min.commits': expected KEY=VALUE, e.g."
            + " hoodie.keep.min.commits=20");
    assertThat(Tables.snapshot(table)).isEqualTo(before);
  }

  @Test
  void anUnknownSchemeIsAUsageErrorListingTheKnownOnes() {
    Cli.Run run = Cli.run("show", "active", "nosuch://bucket/t");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines())
        .containsExactly(
            "error: no storage for scheme 'nosuch'; known schemes: abfs, abfss, file, gs, hdfs, s3, s3a,"
                + " viewfs, wasb, wasbs");
  }

  @Test
  void aMissingTableIsBadInput() {
    Path missing = table.resolve("missing");
    for (String[] args :
        List.of(
            args("archive", missing.toString()),
            args("archive", missing.toString(), "--dry-run"),
            args("plan", missing.toString()),
            args("show", "active", missing.toString()),
            args("show", "archived", missing.toString()))) {
      Cli.Run run = Cli.run(args);
      assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(3);
      assertThat(run.errLines())
          .containsExactly(
              "error: not a Hudi table: file://"
                  + missing.toAbsolutePath()
                  + "/.hoodie/hoodie.properties does not exist");
    }
    assertThat(missing).doesNotExist();
  }

  /** The oldest clean chosen for archival, with garbage where its Avro metadata was. */
  private Path garbleOldestSelectedClean() throws Exception {
    JsonNode plan = Cli.ok(with(Tables.AGGRESSIVE, "plan", table.toString(), "--json")).json();
    for (JsonNode i : plan.get("instantFiles")) {
      if (i.get("action").asText().equals("clean") && i.get("state").asText().equals("COMPLETED")) {
        Path clean = Tables.meta(table).resolve(i.get("time").asText() + ".clean");
        Files.write(clean, "not an avro file".getBytes(UTF_8));
        return clean;
      }
    }
    throw new AssertionError("no clean selected: " + plan);
  }

  @Test
  void anUnreadableInstantFileSelectedForArchivalIsBadInputAndNothingIsDeleted() throws Exception {
    Tables.write(table, Tables.SMALL);
    Path clean = garbleOldestSelectedClean();
    SortedMap<String, String> before = Tables.snapshot(table);

    Cli.Run run = Cli.run(with(Tables.AGGRESSIVE, "archive", table.toString()));

    assertThat(run.exitCode()).as("stderr: %s", run.err()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines().get(0))
        .startsWith("error: cannot archive instant ")
        .contains("file://" + clean.toAbsolutePath());
    assertThat(run.hasStackTrace()).isFalse();
    assertThat(Tables.snapshot(table)).isEqualTo(before);
  }

  @Test
  void withFailOnArchivingOffTheRunStopsBeforeTheUnreadableInstant() throws Exception {
    SampleTable.Written written = Tables.write(table, Tables.SMALL);
    Path clean = garbleOldestSelectedClean();
    String cleanTime = clean.getFileName().toString().replace(".clean", "");

    Cli.Run run =
        Cli.ok(
            with(
                Tables.AGGRESSIVE,
                "archive",
                table.toString(),
                "--conf",
                "hoodie.fail.on.timeline.archiving=false",
                "--json"));

    JsonNode result = run.json();
    assertThat(clean).exists().hasContent("not an avro file");
    for (JsonNode i : result.get("instantFiles")) {
      assertThat(i.get("time").asText()).isLessThan(cleanTime);
    }
    assertThat(result.get("barrier").get("kind").asText()).isEqualTo("UNREADABLE_FILE");
    assertThat(result.get("warnings").toString()).contains(clean.getFileName().toString());
    assertThat(Tables.activeInstants(table).size() + result.get("instantFiles").size())
        .isEqualTo(written.files().size());
  }

  @Test
  void aGarbageArchiveFileIsBadInputNamingTheFile() throws Exception {
    Tables.write(table, Tables.SMALL);
    Path archive = Tables.archiveFile(table, 1);
    Files.createDirectories(archive.getParent());
    Files.write(archive, "this is not a log block".getBytes(UTF_8));

    Cli.Run run = Cli.run("show", "archived", table.toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines().get(0))
        .startsWith(
            "error: corrupt archive file file://" + archive.toAbsolutePath() + " at byte offset 0");
    assertThat(run.hasStackTrace()).isFalse();
  }

  @Test
  void aCorruptBlockInTheArchiveIsBadInputNamingFileAndOffset() throws Exception {
    Tables.write(table, Tables.SMALL);
    Cli.ok(with(Tables.AGGRESSIVE, "archive", table.toString()));
    Path archive = Tables.archiveFile(table, 1);
    byte[] bytes = Files.readAllBytes(archive);
    int second = indexOf(bytes, "#HUDI#".getBytes(UTF_8), 1);
    assertThat(second).isPositive();
    bytes[second] = 'X';
    Files.write(archive, bytes);

    Cli.Run run = Cli.run("--json", "show", "archived", table.toString());

    assertThat(run.exitCode()).isEqualTo(3);
    // under --json the error is JSON on standard output too
    assertThat(run.json().get("exitCode").asInt()).isEqualTo(3);
    assertThat(run.errLines()).hasSize(1);
    assertThat(run.errLines().get(0))
        .startsWith(
            "error: corrupt archive file file://"
                + archive.toAbsolutePath()
                + " at byte offset "
                + second);
  }

  @Test
  void aTruncatedLastBlockIsToleratedAndReported() throws Exception {
    Tables.write(table, Tables.SMALL);
    Cli.ok(with(Tables.AGGRESSIVE, "archive", table.toString()));
    Path archive = Tables.archiveFile(table, 1);
    byte[] bytes = Files.readAllBytes(archive);
    // a crash in the middle of appending a block
    Files.write(
        archive, java.util.Arrays.copyOf(bytes, 30), java.nio.file.StandardOpenOption.APPEND);

    JsonNode json = Cli.ok("--json", "show", "archived", table.toString()).json();

    assertThat(json.get("instantFiles").size()).isEqualTo(39);
    assertThat(json.get("archiveFiles").get(0).get("truncatedTail").asBoolean()).isTrue();
    assertThat(json.get("archiveFiles").get(0).get("bytes").asLong()).isEqualTo(bytes.length + 30L);
  }

  private static int indexOf(byte[] bytes, byte[] pattern, int from) {
    outer:
    for (int i = from; i <= bytes.length - pattern.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (bytes[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void aHeldLockStopsTheRunWithExitCode4AndChangesNothing() throws Exception {
    Tables.write(table, Tables.SMALL);
    Path lock = Tables.meta(table).resolve("archived").resolve(".timeline_archive.lock.1");
    Files.createDirectories(lock.getParent());
    Instant expiry = Instant.now().plus(1, ChronoUnit.HOURS);
    Files.writeString(lock, "owner=other-host/4242/abcd\nexpiry=" + expiry + "\n");
    SortedMap<String, String> before = Tables.snapshot(table);

    Cli.Run run = Cli.run(with(Tables.AGGRESSIVE, "archive", table.toString()));

    assertThat(run.exitCode()).isEqualTo(4);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines())
        .containsExactly(
            "error: the archive of file://"
                + lock.getParent().toAbsolutePath()
                + " is locked by other-host/4242/abcd until "
                + expiry
                + "; another archiver is running, or crashed: on this host the next run takes"
                + " over as soon as that process is gone, and one that died on another host is"
                + " released with `timeline-archive unlock TABLE_URI --owner other-host/4242/abcd`");
    assertThat(Tables.snapshot(table)).isEqualTo(before);

    // Reading needs no lock.
    Cli.ok(with(Tables.AGGRESSIVE, "plan", table.toString()));
    Cli.ok(with(Tables.AGGRESSIVE, "archive", "--dry-run", table.toString()));
    Cli.ok("show", "archived", table.toString());
  }

  @Test
  void unlockReleasesAHolderThatDiedOnAnotherHostOnceItStoppedRenewing() throws Exception {
    Tables.write(table, Tables.SMALL);
    Path folder = Tables.meta(table).resolve("archived");
    Files.createDirectories(folder);
    Instant expiry = Instant.now().plus(1, ChronoUnit.HOURS);
    String holder = "owner=elsewhere/7/abcd\nexpiry=" + expiry + "\nwritten=%s\n";
    Files.writeString(folder.resolve(".timeline_archive.lock.1"), holder.formatted(Instant.now()));

    Cli.Run wrongOwner = Cli.run("unlock", table.toString(), "--owner", "someone");
    assertThat(wrongOwner.exitCode()).isEqualTo(4);
    assertThat(wrongOwner.err()).contains("locked by elsewhere/7/abcd, not by someone");
    Cli.Run recent = Cli.run("unlock", table.toString(), "--owner", "elsewhere/7/abcd");
    assertThat(recent.exitCode()).isEqualTo(4);
    assertThat(recent.err()).contains("within the last minute");
    assertThat(Cli.run(with(Tables.AGGRESSIVE, "archive", table.toString())).exitCode())
        .isEqualTo(4);

    Files.writeString(
        folder.resolve(".timeline_archive.lock.1"),
        holder.formatted(Instant.now().minus(2, ChronoUnit.MINUTES)));
    assertThat(Cli.ok("unlock", table.toString(), "--owner", "elsewhere/7/abcd").out())
        .contains("released the archive lock of elsewhere/7/abcd");
    assertThat(Cli.ok("unlock", table.toString(), "--owner", "elsewhere/7/abcd").out())
        .contains("not locked");
    Cli.ok(with(Tables.AGGRESSIVE, "archive", table.toString()));
  }

  @Test
  void anExpiredLockIsTakenOver() throws Exception {
    Tables.write(table, Tables.SMALL);
    Path lock = Tables.meta(table).resolve("archived").resolve(".timeline_archive.lock.1");
    Files.createDirectories(lock.getParent());
    Files.writeString(
        lock,
        "owner=crashed-host/1/abcd\nexpiry=" + Instant.now().minus(1, ChronoUnit.HOURS) + "\n");

    JsonNode result = Cli.ok(with(Tables.AGGRESSIVE, "archive", table.toString(), "--json")).json();

    assertThat(result.get("instantFiles")).hasSize(39);
    assertThat(lock).doesNotExist();
    assertThat(lock.getParent().resolve(".timeline_archive.lock.2")).doesNotExist();
  }

  @Test
  void anUnexpectedFailureIsExitCode1WithAStackTraceOnlyWhenVerbose() throws Exception {
    Tables.write(table, Tables.SMALL);
    // A file where the archive folder should be: the storage cannot create the lock in it.
    Path archiveFolder = Tables.meta(table).resolve("archived");
    Files.writeString(archiveFolder, "in the way");

    Cli.Run quiet = Cli.run(with(Tables.AGGRESSIVE, "archive", table.toString()));

    assertThat(quiet.exitCode()).isEqualTo(1);
    assertThat(quiet.out()).isEmpty();
    assertThat(quiet.errLines())
        .containsExactly(
            "error: not a folder: " + archiveFolder.toAbsolutePath(),
            "(an unexpected failure: --verbose prints its stack trace)");
    assertThat(quiet.hasStackTrace()).isFalse();

    Cli.Run verbose = Cli.run(with(Tables.AGGRESSIVE, "archive", table.toString(), "--verbose"));

    assertThat(verbose.exitCode()).isEqualTo(1);
    assertThat(verbose.errLines())
        .first()
        .isEqualTo("error: not a folder: " + archiveFolder.toAbsolutePath());
    assertThat(verbose.errLines())
        .contains("java.nio.file.NotDirectoryException: " + archiveFolder.toAbsolutePath());
    assertThat(verbose.hasStackTrace()).isTrue();
  }

  @Test
  void verboseAlsoWorksBeforeTheCommandAndOnBadInput() {
    Cli.Run run = Cli.run("--verbose", "show", "active", table.resolve("missing").toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.errLines()).first().asString().startsWith("error: not a Hudi table: ");
    assertThat(run.err()).contains("java.nio.file.NoSuchFileException");
    assertThat(run.hasStackTrace()).isTrue();
  }

  @Test
  void helpAndVersionAreNotErrors() {
    Cli.Run help = Cli.ok("--help");
    assertThat(help.out())
        .contains("Usage: timeline-archive")
        .contains("demo", "archive", "plan", "show")
        .contains("Exit codes:")
        .contains("4   the archive lock is held by another archiver");
    assertThat(Cli.ok("help", "archive").out())
        .contains("--dry-run", "--min=N", "--conf=KEY=VALUE");
    assertThat(Cli.ok("--version").out()).startsWith("timeline-archive ");
  }
}

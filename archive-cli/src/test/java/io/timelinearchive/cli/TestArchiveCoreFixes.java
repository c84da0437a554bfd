package io.timelinearchive.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** archive-core bugs once seen through the CLI, kept as regression tests. */
class TestArchiveCoreFixes {
  @TempDir Path table;

  /**
   * The newest archive file ends with a torn block (a writer crashed mid-append, with no run
   * journal: Hudi itself on HDFS, or a copy taken while writing). The next run appends after the
   * torn bytes: the archive can no longer be read, and the instants of that run were deleted from
   * the active timeline.
   */
  @Test
  void aRunAfterATornTailKeepsTheArchiveReadable() throws Exception {
    Tables.write(table, Tables.SMALL);
    Cli.ok(
        "archive",
        table.toString(),
        "--min",
        "6",
        "--max",
        "8",
        "--conf",
        "hoodie.cleaner.commits.retained=1");
    Path archive = Tables.archiveFile(table, 1);
    byte[] bytes = Files.readAllBytes(archive);
    Files.write(archive, Arrays.copyOf(bytes, 30), StandardOpenOption.APPEND);
    int before =
        Cli.ok("--json", "show", "archived", table.toString()).json().get("instantFiles").size();

    List<String> args = new ArrayList<>(List.of("archive", table.toString(), "--json"));
    args.addAll(Tables.AGGRESSIVE);
    JsonNode second = Cli.ok(args.toArray(String[]::new)).json();
    assertThat(second.get("instantFiles").size()).isPositive();

    Cli.Run shown = Cli.run("--json", "show", "archived", table.toString());
    assertThat(shown.exitCode()).as("stderr: %s", shown.err()).isZero();
    assertThat(shown.json().get("instantFiles").size())
        .isEqualTo(before + second.get("instantFiles").size());
  }

  /**
   * A malformed {@code \\uXXXX} escape in hoodie.properties: Properties.load throws an
   * IllegalArgumentException that names neither the file nor the problem's place, and the CLI maps
   * it to a usage error (2) instead of bad input (3).
   */
  @Test
  void aMalformedHoodiePropertiesFileIsBadInputNamingTheFile() throws Exception {
    Path properties = Tables.meta(table).resolve("hoodie.properties");
    Files.createDirectories(properties.getParent());
    Files.write(properties, "hoodie.table.name=t\\u00zz\n".getBytes(UTF_8));

    Cli.Run run = Cli.run("show", "active", table.toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err()).contains(properties.toAbsolutePath().toString());
  }

  /**
   * The same in a lock file: ArchiveLock.Holder.decode means to treat an unreadable lock file as
   * held, but Properties.load's IllegalArgumentException escapes it: exit 2 without the file.
   */
  @Test
  void aMalformedLockFileIsTreatedAsHeld() throws Exception {
    Tables.write(table, Tables.SMALL);
    Path lock = Tables.meta(table).resolve("archived").resolve(".timeline_archive.lock.1");
    Files.createDirectories(lock.getParent());
    Files.write(lock, "owner=x\nexpiry=\\u00zz\n".getBytes(UTF_8));

    Cli.Run run = Cli.run("archive", table.toString());

    assertThat(run.exitCode()).as("stderr: %s", run.err()).isEqualTo(4);
    assertThat(run.err()).contains(lock.toAbsolutePath().toString());
  }

  /** LocalMetaStorage.read of a folder throws IOException("Is a directory"), without the path. */
  @Test
  void aFolderWhereHoodiePropertiesShouldBeIsNamed() throws Exception {
    Files.createDirectories(Tables.meta(table).resolve("hoodie.properties"));

    Cli.Run run = Cli.run("show", "active", table.toString());

    assertThat(run.err()).contains(table.toAbsolutePath().toString());
  }
}

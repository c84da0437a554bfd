package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder the run cannot write to is named in the error (exit 5), not an internal temporary file;
 * with only {@code .hoodie/} read-only nothing is archived at all, on every re-run, instead of an
 * archive file per run whose instants then cannot be deleted.
 *
 * <p>Tests may run as root, whom permission bits do not stop: then the folder is made immutable
 * ({@code chattr +i}, which stops root on ext4 and most Linux file systems). Where neither stops a
 * write the test is skipped saying so, never passed.
 */
class TestReadOnlyFolders {
  @TempDir Path work;
  private final List<Runnable> undo = new ArrayList<>();

  @AfterEach
  void makeWritableAgain() {
    undo.forEach(Runnable::run);
  }

  /** Makes {@code folder} refuse new files, by whatever stops this process. */
  private void makeReadOnly(Path folder) throws Exception {
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
    undo.add(() -> chmod(folder, "rwxr-xr-x"));
    if (refusesNewFiles(folder)) {
      return;
    }
    int chattr = run("chattr", "+i", folder.toString());
    undo.add(0, () -> run("chattr", "-i", folder.toString()));
    Assumptions.assumeTrue(
        chattr == 0 && refusesNewFiles(folder),
        "neither permission bits nor chattr +i stop this process from writing in " + folder);
  }

  private static boolean refusesNewFiles(Path folder) {
    Path probe = folder.resolve("probe");
    try {
      Files.createFile(probe);
      Files.delete(probe);
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static void chmod(Path folder, String permissions) {
    try {
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString(permissions));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static int run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(1, TimeUnit.MINUTES) ? p.exitValue() : -1;
    } catch (IOException e) {
      return -1; // no such tool
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String[] archive(Path table) {
    List<String> args = new ArrayList<>(List.of("archive", table.toString()));
    args.addAll(Tables.AGGRESSIVE);
    return args.toArray(String[]::new);
  }

  @Test
  void aReadOnlyMetaFolderStopsTheRunBeforeAnyArchiveFileIsWritten() throws Exception {
    Path table = work.resolve("t");
    Tables.write(table, Tables.SMALL);
    Path meta = Tables.meta(table);
    Files.createDirectories(meta.resolve("archived"));
    SortedMap<String, String> before = Tables.snapshot(table);
    makeReadOnly(meta);

    for (int run = 0; run < 2; run++) {
      Cli.Run denied = Cli.run(archive(table));

      assertThat(denied.exitCode()).as("exit code; stderr: %s", denied.err()).isEqualTo(5);
      assertThat(denied.errLines())
          .first()
          .asString()
          .startsWith("error: access denied: file://" + meta + " (cannot create a file there")
          .contains("no archive file was written");
      assertThat(Tables.snapshot(table)).as("the table after run %d", run).isEqualTo(before);
    }
  }

  @Test
  void aReadOnlyArchiveFolderIsNamedNotATemporaryFile() throws Exception {
    Path table = work.resolve("t");
    Tables.write(table, Tables.SMALL);
    Path archived = Files.createDirectories(Tables.meta(table).resolve("archived"));
    SortedMap<String, String> before = Tables.snapshot(table);
    makeReadOnly(archived);

    Cli.Run denied = Cli.run(archive(table));

    assertThat(denied.exitCode()).as("exit code; stderr: %s", denied.err()).isEqualTo(5);
    assertThat(denied.errLines())
        .first()
        .asString()
        .startsWith("error: access denied: file://" + archived + "/")
        .contains("(the folder " + archived + " is not writable")
        .doesNotContain(".tla-");
    assertThat(Tables.snapshot(table)).isEqualTo(before);
  }
}

package io.timelinearchive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.azure.Azurite;
import io.timelinearchive.storage.gcs.FakeGcsServer;
import io.timelinearchive.storage.hdfs.MiniDfs;
import io.timelinearchive.storage.s3.S3ProxyServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI jar as built, run as a user runs it (its own JVM, nothing on the class path but the jar)
 * against every backend's real server: what the shade configuration leaves out of the jar must be
 * nothing that a backend loads. Each backend gets the same sample table twice; the jar of every
 * store archives one copy, the backend's own jar the other, each reads its archive back, and every
 * one must end as local disk does with the jar of every store.
 */
@ExtendWith(Azurite.Extension.class)
class ShadedJarOnEveryBackendIT {
  private static final Path JAR = Path.of(System.getProperty("timeline-archive.jar", "missing"));

  /** The jars of one store each, beside the one of every store. */
  private static final Path JARS = JAR.toAbsolutePath().getParent();

  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
  // a JVM that has not answered in this long is stuck, not slow: one run takes seconds
  private static final long RUN_LIMIT_MINUTES = 5;

  @RegisterExtension static final MiniDfs HDFS = new MiniDfs();

  @TempDir Path work;

  /**
   * @param jar the jar of this store alone ({@code file} is in each of them)
   */
  private record Backend(String name, StorageLocation base, Map<String, String> config, Path jar) {}

  /** What a backend ended with. */
  private record Outcome(List<String> active, List<String> archived, String showArchived) {}

  private record Run(int exitCode, String out, String err) {}

  @Test
  void theJarArchivesAndReadsBackTheSameOnEveryBackend() throws Exception {
    List<Backend> backends = new ArrayList<>();
    backends.add(
        new Backend(
            "file",
            StorageLocation.of(work.resolve("t").toUri().toString()),
            Map.of(),
            JARS.resolve("timeline-archive-s3.jar")));
    backends.add(
        new Backend(
            "hdfs",
            HDFS.newRoot("jar").resolve("t"),
            HDFS.config(),
            JARS.resolve("timeline-archive-hdfs.jar")));
    S3ProxyServer s3 = S3ProxyServer.shared();
    backends.add(
        new Backend(
            "s3",
            StorageLocation.of("s3://" + s3.newBucket() + "/t"),
            s3.config(),
            JARS.resolve("timeline-archive-s3.jar")));
    Azurite azurite = Azurite.get();
    backends.add(
        new Backend(
            "azure",
            Azurite.rootOf(azurite.newContainer().getBlobContainerName()).resolve("t"),
            azurite.config(),
            JARS.resolve("timeline-archive-azure.jar")));
    FakeGcsServer gcs = FakeGcsServer.shared();
    backends.add(
        new Backend(
            "gcs",
            StorageLocation.of("gs://" + gcs.newBucket("jar") + "/t"),
            gcs.config(),
            JARS.resolve("timeline-archive-gcs.jar")));

    Map<String, Outcome> outcomes = new LinkedHashMap<>();
    for (Backend backend : backends) {
      outcomes.put(backend.name(), archiveWithTheJar(backend, JAR, "every-store"));
      outcomes.put(
          backend.name() + " with " + backend.jar().getFileName(),
          archiveWithTheJar(backend, backend.jar(), "one-store"));
    }

    Outcome reference = outcomes.get("file");
    assertThat(outcomes).hasSize(2 * backends.size());
    assertThat(reference.archived()).isNotEmpty();
    assertThat(reference.showArchived()).contains(reference.archived().get(0));
    for (Map.Entry<String, Outcome> e : outcomes.entrySet()) {
      assertThat(e.getValue().active())
          .as("%s: active timeline after the jar's run", e.getKey())
          .isEqualTo(reference.active());
      assertThat(e.getValue().archived())
          .as("%s: archive as the library reads it", e.getKey())
          .isEqualTo(reference.archived());
      assertThat(e.getValue().showArchived())
          .as("%s: the jar's own read-back", e.getKey())
          .isEqualTo(reference.showArchived());
    }
  }

  /** Writes the sample table in {@code folder} of the backend and archives it with {@code jar}. */
  private Outcome archiveWithTheJar(Backend backend, Path jar, String folder) throws Exception {
    assertThat(jar).as("the CLI jar").isRegularFile();
    StorageLocation base = backend.base().resolve(folder);
    StorageLocation meta = base.resolve(".hoodie");
    try (MetaStorage storage = MetaStorages.open(base, backend.config())) {
      SampleTable.Written table = SampleTable.write(storage, base, SampleTable.Spec.ofSize(150, 7));
      String uri = base.toString();

      Run archive = jar(jar, backend, "archive", uri, "--min", "5", "--max", "10");
      assertThat(archive.exitCode())
          .as("%s: archive exit code; stderr: %s", backend.name(), archive.err())
          .isZero();
      Run show = jar(jar, backend, "show", "archived", uri);
      assertThat(show.exitCode())
          .as("%s: show archived exit code; stderr: %s", backend.name(), show.err())
          .isZero();

      List<String> active = ActiveInstantFiles.in(storage, meta);
      assertThat(active)
          .as("%s: the run deleted archived files", backend.name())
          .hasSizeLessThan(table.files().size());
      List<String> archived = new ArrayList<>();
      for (ArchivedInstant a :
          ArchivedTimeline.load(storage, meta.resolve("archived"), ArchiveReadOptions.all())
              .instants()) {
        archived.add(a.instant().toString());
      }
      // the listing names the table; the rest must match across backends
      return new Outcome(active, archived, show.out().replace(uri, "TABLE"));
    }
  }

  /** Runs {@code jar} with {@code args} and the backend's settings as {@code --conf}. */
  private Run jar(Path jar, Backend backend, String... args)
      throws IOException, InterruptedException {
    // C1 only, as the launcher next to the jar runs it (C2 nearly doubled a run's CPU here)
    List<String> command =
        new ArrayList<>(
            List.of(JAVA.toString(), "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
    command.addAll(List.of(args));
    backend.config().forEach((key, value) -> command.addAll(List.of("--conf", key + "=" + value)));
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(RUN_LIMIT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(backend.name() + ": the jar did not end: " + command);
    }
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}

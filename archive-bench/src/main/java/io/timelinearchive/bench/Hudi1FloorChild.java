package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The storage floor of one archival run of a Hudi 1.x table on the local disk, in a process of its
 * own, as {@link FloorChild} is 0.x's: lists {@code TABLE_DIR/.hoodie/timeline/} once, reads every
 * instant file once, writes what it read once into one history file (the bytes as read: the floor
 * has no encoding to do), then the LSM history's manifest and {@code _version_} (what makes a
 * history file current in 1.x), and deletes every instant file once. Like 0.x's floor it takes
 * every instant file, the few an archiver keeps too. Prints the files and bytes it saw.
 */
public final class Hudi1FloorChild {
  private Hudi1FloorChild() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: TABLE_DIR");
    }
    Path timeline = Path.of(args[0]).resolve(".hoodie").resolve("timeline");
    List<Path> instantFiles;
    try (Stream<Path> files = Files.list(timeline)) {
      instantFiles =
          files
              .filter(f -> Character.isDigit(f.getFileName().toString().charAt(0)))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
    }
    if (instantFiles.isEmpty()) {
      throw new IllegalStateException("no instant files in " + timeline);
    }
    Path history = Files.createDirectories(timeline.resolve("history"));
    String first = instantFiles.get(0).getFileName().toString().substring(0, 17);
    String last = instantFiles.get(instantFiles.size() - 1).getFileName().toString();
    Path file = history.resolve(first + "_" + last.substring(0, 17) + "_0.parquet");
    long bytes = 0;
    try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
      for (Path f : instantFiles) {
        byte[] content = Files.readAllBytes(f);
        out.write(content);
        bytes += content.length;
      }
    }
    Files.writeString(
        history.resolve("manifest_1"),
        "{\"files\":[{\"fileName\":\"" + file.getFileName() + "\",\"fileLen\":" + bytes + "}]}",
        UTF_8,
        StandardOpenOption.CREATE_NEW);
    Files.writeString(history.resolve("_version_"), "1", UTF_8, StandardOpenOption.CREATE_NEW);
    for (Path f : instantFiles) {
      Files.delete(f);
    }
    System.out.println("FLOOR " + instantFiles.size() + " files " + bytes + " bytes");
  }
}

package io.timelinearchive.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The storage floor of one archival run on the local disk, in a process of its own: lists {@code
 * TABLE_DIR/.hoodie/}, reads every instant file once and deletes it once, nothing else. Prints the
 * files and bytes it saw.
 */
public final class FloorChild {
  private FloorChild() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: TABLE_DIR");
    }
    Path meta = Path.of(args[0]).resolve(".hoodie");
    List<Path> instantFiles;
    try (Stream<Path> files = Files.list(meta)) {
      instantFiles =
          files
              .filter(f -> Character.isDigit(f.getFileName().toString().charAt(0)))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
    }
    long bytes = 0;
    for (Path f : instantFiles) {
      bytes += Files.readAllBytes(f).length;
    }
    for (Path f : instantFiles) {
      Files.delete(f);
    }
    System.out.println("FLOOR " + instantFiles.size() + " files " + bytes + " bytes");
  }
}

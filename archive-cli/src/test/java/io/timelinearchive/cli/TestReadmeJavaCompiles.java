package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java blocks of the README's library section compile as written and the library example runs,
 * so they cannot rot.
 */
class TestReadmeJavaCompiles {
  private static final Path README = Path.of("..", "README.md");
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);
  private static final Pattern PUBLIC_CLASS = Pattern.compile("public (?:final )?class (\\w+)");

  @TempDir Path work;

  static List<String> javaBlocks() throws Exception {
    // The library section's blocks: the Hudi callback's snippets need Hudi's jars, not on this
    // module's class path.
    String readme = Files.readString(README);
    int start = readme.indexOf("## As a library");
    int end = readme.indexOf("\n## ", start + 1);
    Matcher m = JAVA_BLOCK.matcher(readme.substring(start, end < 0 ? readme.length() : end));
    List<String> blocks = new ArrayList<>();
    while (m.find()) {
      blocks.add(m.group(1));
    }
    return blocks;
  }

  @Test
  void everyJavaBlockCompilesAgainstTheLibraryAndTheExampleRunsOnATable() throws Exception {
    List<String> blocks = javaBlocks();
    assertThat(blocks).as("java blocks in %s", README.toAbsolutePath()).isNotEmpty();
    Path sources = Files.createDirectories(work.resolve("src"));
    Path classes = Files.createDirectories(work.resolve("classes"));
    List<String> names = new ArrayList<>();
    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath"));
    args.add(System.getProperty("java.class.path"));
    for (String block : blocks) {
      Matcher name = PUBLIC_CLASS.matcher(block);
      assertThat(name.find()).as("a public class in:%n%s", block).isTrue();
      names.add(name.group(1));
      args.add(Files.writeString(sources.resolve(name.group(1) + ".java"), block).toString());
    }

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
    assertThat(status).as("javac:%n%s", diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    Path table = work.resolve("table");
    // the demo's table: the example's settings, Hudi's defaults, archive part of it
    Tables.write(table, io.timelinearchive.sample.SampleTable.Spec.demo());
    String printed = runMain(classes, "ArchiveAfterCommit", table.toString());
    assertThat(names).contains("ArchiveAfterCommit");
    assertThat(Tables.archiveFile(table, 1)).exists();
    assertThat(printed).startsWith("archived {").contains(" COMPLETED");
  }

  private static String runMain(Path classes, String className, String arg) throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (URLClassLoader loader =
        new URLClassLoader(
            new URL[] {classes.toUri().toURL()}, TestReadmeJavaCompiles.class.getClassLoader())) {
      Method main = loader.loadClass(className).getMethod("main", String[].class);
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      main.invoke(null, (Object) new String[] {arg});
    } finally {
      System.setOut(out);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}

package org.lakesql.interop.flink;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * lakesql's Flink 1.20 runner over paimon-flink-1.20: runs a file of Flink SQL
 * statements on a local MiniCluster against a Paimon catalog named
 * {@code paimon} (the current catalog) on a local warehouse (see ../README.md):
 * the filesystem catalog, or whatever --catalog-option KEY=VALUE (repeatable,
 * added to CREATE CATALOG's WITH) selects, e.g. Paimon's JDBC catalog with
 * metastore=jdbc, uri=jdbc:postgresql://…, lock.enabled=true.
 *
 * <pre>
 * sql --warehouse W --file F [--catalog-option KEY=VALUE]... [--config KEY=VALUE]... [--batch] [--parallelism N]
 *     [--checkpoint-ms MS --checkpoint-dir D [--restore latest|PATH]]
 *     [--repeat-ms MS --until-file STOP [--rounds N]]
 * </pre>
 *
 * Streaming mode (the default) checkpoints every --checkpoint-ms into
 * --checkpoint-dir, keeps the last checkpoints when the process dies, and
 * restarts failed jobs from the last checkpoint (fixed delay, 1 s, up to
 * 1000 times): Paimon's sink commits on each completed checkpoint.
 * --restore latest starts from the newest completed checkpoint under
 * --checkpoint-dir (a Flink restart after a crash); a path restores that
 * checkpoint. Each statement runs in turn; one that starts a job waits for it
 * to end (a bounded source ends; an unbounded one runs until the process is
 * killed). With --repeat-ms the whole file runs again every MS milliseconds
 * until the file STOP exists (a dedicated compaction job: CALL sys.compact),
 * or for N rounds with --rounds.
 * --config KEY=VALUE (repeatable) sets a Flink configuration option over
 * the runner's own settings, e.g. restart-strategy.type=none so that a batch job's
 * failure ends the run instead of restarting it (TableEnvironment takes no
 * SET statement).
 *
 * stdout gets one line per event: "restore PATH", "job ID started",
 * "job ID finished", "result ..." rows of a query or procedure. Errors go
 * to stderr with exit status 1.
 */
public final class FlinkTool {
    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } catch (Throwable e) {
            System.err.println("flink-interop: " + describe(e));
            System.err.flush();
            System.exit(1);
        }
        System.out.flush();
        // Flink's MiniCluster leaves non-daemon threads behind.
        System.exit(0);
    }

    /** One KEY=VALUE as a ", 'KEY' = 'VALUE'" item of a WITH clause. */
    static String withOption(String pair) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--catalog-option " + pair + " is not KEY=VALUE");
        }
        return ", " + quote(pair.substring(0, eq)) + " = " + quote(pair.substring(eq + 1));
    }

    static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.toString();
    }

    private static void run(String[] args) throws Exception {
        if (args.length == 0 || !args[0].equals("sql")) {
            throw new IllegalArgumentException("usage: sql --warehouse W --file F [options]");
        }
        String warehouse = null, file = null, checkpointDir = null, restore = null, untilFile = null;
        StringBuilder catalogOptions = new StringBuilder();
        List<String> config = new ArrayList<>();
        boolean batch = false;
        int parallelism = 1;
        long checkpointMs = 1000, repeatMs = 0;
        int rounds = 0, round = 0;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--warehouse": warehouse = args[++i]; break;
                case "--file": file = args[++i]; break;
                case "--catalog-option": catalogOptions.append(withOption(args[++i])); break;
                case "--config": config.add(args[++i]); break;
                case "--batch": batch = true; break;
                case "--parallelism": parallelism = Integer.parseInt(args[++i]); break;
                case "--checkpoint-ms": checkpointMs = Long.parseLong(args[++i]); break;
                case "--checkpoint-dir": checkpointDir = args[++i]; break;
                case "--restore": restore = args[++i]; break;
                case "--repeat-ms": repeatMs = Long.parseLong(args[++i]); break;
                case "--until-file": untilFile = args[++i]; break;
                case "--rounds": rounds = Integer.parseInt(args[++i]); break;
                default: throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (warehouse == null || file == null) {
            throw new IllegalArgumentException("--warehouse and --file are required");
        }
        List<String> statements = split(new String(Files.readAllBytes(new File(file).toPath()), StandardCharsets.UTF_8));

        Configuration conf = new Configuration();
        conf.setString("parallelism.default", Integer.toString(parallelism));
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "1000");
        conf.setString("restart-strategy.fixed-delay.delay", "1 s");
        conf.setString("taskmanager.memory.managed.size", "64m");
        conf.setString("taskmanager.numberOfTaskSlots", "4");
        conf.setString("rest.bind-port", "0");
        TableEnvironment tEnv;
        if (batch) {
            conf.setString("execution.runtime-mode", "batch");
            setAll(conf, config);
            tEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inBatchMode().withConfiguration(conf).build());
        } else {
            conf.setString("execution.runtime-mode", "streaming");
            conf.setString("execution.checkpointing.interval", checkpointMs + " ms");
            conf.setString("execution.checkpointing.mode", "EXACTLY_ONCE");
            conf.setString("execution.checkpointing.num-retained", "2");
            conf.setString("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
            if (checkpointDir != null) {
                conf.setString("state.checkpoints.dir", new File(checkpointDir).toURI().toString());
            }
            if (restore != null) {
                String path = restore.equals("latest") ? latestCheckpoint(checkpointDir) : restore;
                System.out.println("restore " + path);
                System.out.flush();
                conf.setString("execution.savepoint.path", path);
            }
            setAll(conf, config);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            tEnv = StreamTableEnvironment.create(env, EnvironmentSettings.newInstance().inStreamingMode().build());
        }
        tEnv.executeSql("CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = '"
                + new File(warehouse).toURI() + "'" + catalogOptions + ")").await();
        tEnv.executeSql("USE CATALOG paimon").await();

        do {
            for (String stmt : statements) {
                execute(tEnv, stmt);
            }
            if (repeatMs <= 0) {
                break;
            }
            long until = System.currentTimeMillis() + repeatMs;
            while (System.currentTimeMillis() < until && !new File(untilFile).exists()) {
                Thread.sleep(50);
            }
        } while (!new File(untilFile).exists() && (rounds == 0 || ++round < rounds));
    }

    /** setAll sets each --config KEY=VALUE pair, over the runner's own settings. */
    static void setAll(Configuration conf, List<String> pairs) {
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--config " + pair + " is not KEY=VALUE");
            }
            conf.setString(pair.substring(0, eq), pair.substring(eq + 1));
        }
    }

    private static void execute(TableEnvironment tEnv, String stmt) throws Exception {
        TableResult result = tEnv.executeSql(stmt);
        if (result.getJobClient().isPresent()) {
            System.out.println("job " + result.getJobClient().get().getJobID() + " started");
            System.out.flush();
        }
        if (isDml(stmt)) {
            // A DML statement's only result row is a dummy -1; wait for its
            // job to end. Collecting it instead fails in batch mode: closing
            // the iterator reaches for the job's MiniCluster, which shut
            // down when the job ended.
            result.await();
        } else {
            try (CloseableIterator<Row> it = result.collect()) {
                while (it.hasNext()) {
                    System.out.println("result " + it.next());
                }
            }
        }
        if (result.getJobClient().isPresent()) {
            System.out.println("job " + result.getJobClient().get().getJobID() + " finished");
        }
        System.out.flush();
    }

    /** isDml reports whether stmt is an INSERT, UPDATE or DELETE. */
    static boolean isDml(String stmt) {
        String head = stmt.trim().toUpperCase(Locale.ROOT);
        return head.startsWith("INSERT") || head.startsWith("UPDATE") || head.startsWith("DELETE");
    }

    /** split cuts a script into statements at semicolons that end a line. */
    static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : script.split("\n", -1)) {
            if (line.trim().startsWith("--")) {
                continue;
            }
            cur.append(line).append('\n');
            if (line.trim().endsWith(";")) {
                String s = cur.toString().trim();
                out.add(s.substring(0, s.length() - 1));
                cur.setLength(0);
            }
        }
        if (!cur.toString().trim().isEmpty()) {
            out.add(cur.toString().trim());
        }
        return out;
    }

    /** latestCheckpoint is the completed checkpoint (chk-N with _metadata) with the highest N under dir. */
    static String latestCheckpoint(String dir) {
        if (dir == null) {
            throw new IllegalArgumentException("--restore latest needs --checkpoint-dir");
        }
        File best = null;
        long bestN = -1;
        File[] jobs = new File(dir).listFiles();
        if (jobs != null) {
            for (File job : jobs) {
                File[] chks = job.listFiles();
                if (chks == null) {
                    continue;
                }
                for (File chk : chks) {
                    if (!chk.getName().startsWith("chk-") || !new File(chk, "_metadata").exists()) {
                        continue;
                    }
                    long n = Long.parseLong(chk.getName().substring(4));
                    if (best == null || chk.lastModified() > best.lastModified()
                            || (chk.lastModified() == best.lastModified() && n > bestN)) {
                        best = chk;
                        bestN = n;
                    }
                }
            }
        }
        if (best == null) {
            throw new IllegalStateException("no completed checkpoint under " + dir);
        }
        return best.toURI().toString();
    }
}

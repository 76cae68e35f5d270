package org.lakesql.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * lakesql's command-line tool over Apache Paimon's Java API (see ../README.md).
 *
 * <pre>
 * dump      --warehouse W --table db.t [--snapshot N | --tag NAME | --incremental A,B] [--filter JSON]
 *                                                                    rows, one JSON object a line
 * snapshots --warehouse W --table db.t                               {"snapshots": […], "tags": […]}
 * systable  --warehouse W --table db.t --name snapshots|files|partitions|…   JSON rows
 * write     --warehouse W --spec FILE                                create a table, write commits
 * compact   --warehouse W --table db.t                               full compaction of every bucket
 * expire    --warehouse W --table db.t --retain N                    keep the newest N snapshots
 * sketch-vectors --kind theta|hll                                    golden vectors of the sketch aggregators
 * file-index --warehouse W --table db.t --filter JSON                Java's data-file index verdict per file
 * batch                                                             one JSON array of arguments a line
 *                                                                   on stdin, one JSON answer a line
 * </pre>
 *
 * Every command that takes --warehouse also takes --catalog JSON, more
 * catalog options (the JDBC catalog and its lock, see catalog()). JavaWrites
 * and CatalogCommands have the other commands.
 *
 * Errors go to stderr with exit status 1 (in batch mode, as {"error": …}).
 */
public final class PaimonTool {
    static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;

    private PaimonTool(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("batch")) {
            batch();
            return;
        }
        try {
            new PaimonTool(System.out).run(args);
        } catch (Exception e) {
            System.err.println("paimon-interop: " + describe(e));
            System.exit(1);
        }
        System.out.flush();
        System.exit(0);
    }

    /** batch answers one command a line, so one JVM serves a whole test. */
    private static void batch() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            ObjectNode answer = JSON.createObjectNode();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (PrintStream ps = new PrintStream(buf, false, StandardCharsets.UTF_8)) {
                List<String> args = new ArrayList<>();
                for (JsonNode a : JSON.readTree(line)) {
                    args.add(a.asText());
                }
                new PaimonTool(ps).run(args.toArray(new String[0]));
                ps.flush();
                answer.put("output", buf.toString(StandardCharsets.UTF_8));
            } catch (Exception e) {
                answer.put("error", describe(e));
            }
            System.out.println(JSON.writeValueAsString(answer));
            System.out.flush();
        }
        System.exit(0);
    }

    private static String describe(Throwable e) {
        StringBuilder b = new StringBuilder(e.toString());
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            b.append(" <- ").append(c);
        }
        return b.toString();
    }

    private void run(String[] argv) throws Exception {
        if (argv.length == 0) {
            throw new IllegalArgumentException("usage: paimon-interop dump|snapshots|systable|write|compact|expire"
                    + "|alter|tag|branch|commit|create-database|list|drop-table|commit-loop|sketch-vectors|batch …");
        }
        Map<String, String> a = flags(argv);
        switch (argv[0]) {
            case "dump":
                dump(a);
                break;
            case "snapshots":
                snapshots(a);
                break;
            case "systable":
                systable(a);
                break;
            case "write":
                write(a);
                break;
            case "compact":
                compact(a);
                break;
            case "expire":
                expire(a);
                break;
            case "version":
                out.println(JSON.writeValueAsString(JSON.createObjectNode()
                        .put("paimon", Table.class.getPackage().getImplementationVersion())));
                break;
            default:
                if (JavaWrites.run(argv[0], a, out) || CatalogCommands.run(argv[0], a, out)
                        || EvolutionCommands.run(argv[0], a, out)
                        || SketchVectors.run(argv[0], a, out) || FileIndexCheck.run(argv[0], a, out)) {
                    break;
                }
                throw new IllegalArgumentException("unknown subcommand " + argv[0]);
        }
    }

    private static Map<String, String> flags(String[] argv) {
        Map<String, String> a = new HashMap<>();
        for (int i = 1; i < argv.length; i++) {
            if (!argv[i].startsWith("--") || i + 1 >= argv.length) {
                throw new IllegalArgumentException("bad argument " + argv[i]);
            }
            a.put(argv[i].substring(2), argv[++i]);
        }
        return a;
    }

    static String need(Map<String, String> a, String name) {
        String v = a.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    /**
     * catalog opens the catalog of --warehouse, a filesystem catalog unless
     * --catalog, a JSON object of more catalog options, says otherwise: e.g.
     * {"metastore": "jdbc", "uri": "jdbc:postgresql://…", "jdbc.user": …,
     * "jdbc.password": …, "catalog-key": …, "lock.enabled": "true"} for the
     * JDBC catalog whose lock lakesql shares.
     */
    static Catalog catalog(Map<String, String> a) throws Exception {
        Options o = new Options();
        if (a.containsKey("catalog")) {
            JsonNode extra = JSON.readTree(a.get("catalog"));
            if (!extra.isObject()) {
                throw new IllegalArgumentException("--catalog must be a JSON object of catalog options");
            }
            extra.fields().forEachRemaining(e -> o.set(e.getKey(), e.getValue().asText()));
        }
        if (o.containsKey("warehouse")) {
            throw new IllegalArgumentException("--catalog must not set warehouse; --warehouse does");
        }
        o.set("warehouse", new File(need(a, "warehouse")).getAbsolutePath());
        return CatalogFactory.createCatalog(CatalogContext.create(o));
    }

    private static Table table(Catalog c, String name) throws Exception {
        return c.getTable(Identifier.fromString(name));
    }

    /** dump prints every row of the table at the snapshot or tag asked for. */
    private void dump(Map<String, String> a) throws Exception {
        try (Catalog c = catalog(a)) {
            Table t = table(c, need(a, "table"));
            Map<String, String> travel = new HashMap<>();
            if (a.containsKey("snapshot")) {
                travel.put("scan.snapshot-id", a.get("snapshot"));
            }
            if (a.containsKey("tag")) {
                travel.put("scan.tag-name", a.get("tag"));
            }
            if (a.containsKey("incremental")) {
                // "A,B": what snapshots A+1 … B added, read from their delta
                // manifest lists, as a streaming reader would.
                travel.put("incremental-between", a.get("incremental"));
            }
            if (!travel.isEmpty()) {
                t = t.copy(travel);
            }
            Predicate f = a.containsKey("filter") ? filter(t.rowType(), JSON.readTree(a.get("filter"))) : null;
            if (f != null && a.getOrDefault("pushdown", "true").equals("false")) {
                printRows(t, null, f);
            } else {
                printRows(t, f, null);
            }
        }
    }

    /**
     * filter is the conjunction of --filter's terms, [{"column": c, "op":
     * "=" | "<" | ">" | "isnull", "value": v}, …], v in the interop encoding.
     * Paimon prunes partitions, buckets, files and row groups with it (by the
     * stats lakesql wrote), and the read applies it exactly.
     */
    static Predicate filter(RowType type, JsonNode terms) {
        PredicateBuilder pb = new PredicateBuilder(type);
        List<Predicate> all = new ArrayList<>();
        for (JsonNode term : terms) {
            int i = type.getFieldIndex(term.get("column").asText());
            if (i < 0) {
                throw new IllegalArgumentException("no column " + term.get("column"));
            }
            Object v = SpecJson.value(term.get("value"), type.getTypeAt(i));
            switch (term.get("op").asText()) {
                case "=":
                    all.add(pb.equal(i, v));
                    break;
                case "<":
                    all.add(pb.lessThan(i, v));
                    break;
                case ">":
                    all.add(pb.greaterThan(i, v));
                    break;
                case "isnull":
                    all.add(pb.isNull(i));
                    break;
                default:
                    throw new IllegalArgumentException("unknown filter op " + term.get("op"));
            }
        }
        return PredicateBuilder.and(all);
    }

    private void printRows(Table t) throws Exception {
        printRows(t, null, null);
    }

    /**
     * printRows prints the rows of t; filter is pushed down into the scan and
     * applied exactly, test (--pushdown false) only tested on each row read.
     */
    private void printRows(Table t, Predicate filter, Predicate test) throws Exception {
        RowType type = t.rowType();
        ReadBuilder rb = t.newReadBuilder();
        if (filter != null) {
            rb = rb.withFilter(filter);
        }
        List<Split> splits = rb.newScan().plan().splits();
        TableRead read = rb.newRead();
        if (filter != null) {
            read = read.executeFilter();
        }
        try (RecordReader<InternalRow> reader = read.createReader(splits)) {
            RecordReader.RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                InternalRow row;
                while ((row = batch.next()) != null) {
                    if (test != null && !test.test(row)) {
                        continue;
                    }
                    ObjectNode o = RowJson.row(row, type);
                    // +I and +U are both rows of the table; a batch read never
                    // returns -U or -D, so print them if it does.
                    if (row.getRowKind() == RowKind.UPDATE_BEFORE || row.getRowKind() == RowKind.DELETE) {
                        o.put("$rowkind", row.getRowKind().shortString());
                    }
                    out.println(JSON.writeValueAsString(o));
                }
                batch.releaseBatch();
            }
        }
    }

    /** snapshots lists the table's snapshots and tags from its system tables. */
    private void snapshots(Map<String, String> a) throws Exception {
        try (Catalog c = catalog(a)) {
            String name = need(a, "table");
            ObjectNode o = JSON.createObjectNode();
            o.set("snapshots", JSON.valueToTree(rows(table(c, name + "$snapshots"))));
            o.set("tags", JSON.valueToTree(rows(table(c, name + "$tags"))));
            out.println(JSON.writeValueAsString(o));
        }
    }

    static List<ObjectNode> rows(Table t) throws Exception {
        List<ObjectNode> rows = new ArrayList<>();
        ReadBuilder rb = t.newReadBuilder();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(r -> rows.add(RowJson.row(r, t.rowType())));
        }
        return rows;
    }

    /** systable prints the rows of one of the table's system tables. */
    private void systable(Map<String, String> a) throws Exception {
        try (Catalog c = catalog(a)) {
            Table t = table(c, need(a, "table") + "$" + need(a, "name"));
            if (a.containsKey("snapshot")) {
                t = t.copy(Map.of("scan.snapshot-id", a.get("snapshot")));
            }
            printRows(t);
        }
    }

    /**
     * write creates the table the spec describes (unless it exists, or the
     * spec has no "columns": then the table must exist) and writes its
     * commits in order, each one commit:
     *
     * <pre>
     * {"table": "db.t",
     *  "columns": [{"name": "id", "type": "INT NOT NULL"}, …],
     *  "primaryKeys": ["id"], "partitionKeys": [], "options": {"bucket": "2"},
     *  "commits": [{"rows": [{"id": 1, …}], "kinds": ["+I", …]?, "overwrite": false?}, …]}
     * </pre>
     */
    private void write(Map<String, String> a) throws Exception {
        JsonNode spec = JSON.readTree(new File(need(a, "spec")));
        try (Catalog c = catalog(a)) {
            Identifier id = Identifier.fromString(spec.get("table").asText());
            if (spec.has("columns")) {
                createTable(c, id, spec);
            }
            Table t = c.getTable(id);
            int n = 0;
            if (spec.has("commits")) {
                for (JsonNode commit : spec.get("commits")) {
                    writeCommit(t, commit);
                    n++;
                }
            }
            out.println(JSON.writeValueAsString(JSON.createObjectNode().put("table", id.getFullName()).put("commits", n)));
        }
    }

    /** createTable creates the spec's table unless it exists. */
    private static void createTable(Catalog c, Identifier id, JsonNode spec) throws Exception {
        c.createDatabase(id.getDatabaseName(), true);
        Schema.Builder sb = Schema.newBuilder();
        for (JsonNode col : spec.get("columns")) {
            sb.column(col.get("name").asText(), SpecJson.type(col.get("type")));
        }
        sb.primaryKey(strings(spec.get("primaryKeys")));
        sb.partitionKeys(strings(spec.get("partitionKeys")));
        if (spec.has("options")) {
            spec.get("options").fields().forEachRemaining(e -> sb.option(e.getKey(), e.getValue().asText()));
        }
        c.createTable(id, sb.build(), true);
    }

    private static List<String> strings(JsonNode n) {
        List<String> s = new ArrayList<>();
        if (n != null) {
            n.forEach(e -> s.add(e.asText()));
        }
        return s;
    }

    /**
     * writeCommit writes one commit of the spec. "writeColumns": ["c", …]
     * writes rows of those columns only (BatchTableWrite.withWriteType, data
     * evolution); "firstRowId": N gives the new files first row id N
     * (EvolutionCommands.assignFirstRowId): the rows of a partial write are
     * those N, N+1, … of the file holding them already. "options": {…}
     * are dynamic table options of this commit's writer (write-only =
     * true leaves its files on level 0 for another job to compact).
     */
    static void writeCommit(Table t, JsonNode commit) throws Exception {
        if (commit.has("options")) {
            Map<String, String> dynamic = new HashMap<>();
            commit.get("options").fields().forEachRemaining(e -> dynamic.put(e.getKey(), e.getValue().asText()));
            t = t.copy(dynamic);
        }
        BatchWriteBuilder wb = t.newBatchWriteBuilder();
        if (commit.path("overwrite").asBoolean(false)) {
            wb = wb.withOverwrite();
        }
        JsonNode kinds = commit.get("kinds");
        RowType type = t.rowType();
        if (commit.has("writeColumns")) {
            type = type.project(strings(commit.get("writeColumns")));
        }
        try (IOManager io = IOManager.create(System.getProperty("java.io.tmpdir"));
                BatchTableWrite w = wb.newWrite(); BatchTableCommit bc = wb.newCommit()) {
            w.withIOManager(io);
            if (commit.has("writeColumns")) {
                w.withWriteType(type);
            }
            int i = 0;
            for (JsonNode r : commit.get("rows")) {
                RowKind kind = kinds == null ? RowKind.INSERT : RowKind.fromShortString(kinds.get(i).asText());
                w.write(SpecJson.row(r, type, kind));
                i++;
            }
            List<CommitMessage> msgs = w.prepareCommit();
            if (commit.has("firstRowId")) {
                EvolutionCommands.assignFirstRowId(msgs, commit.get("firstRowId").asLong());
            }
            bc.commit(msgs);
        }
    }

    /** compact fully compacts every bucket of the latest snapshot in one commit. */
    private void compact(Map<String, String> a) throws Exception {
        try (Catalog c = catalog(a)) {
            Table t = table(c, need(a, "table"));
            if (t instanceof FileStoreTable && unawareAppend((FileStoreTable) t)) {
                compactUnaware((FileStoreTable) t);
                return;
            }
            Set<Map.Entry<BinaryRow, Integer>> buckets = new LinkedHashSet<>();
            for (Split s : t.newReadBuilder().newScan().plan().splits()) {
                DataSplit d = (DataSplit) s;
                buckets.add(Map.entry(d.partition(), d.bucket()));
            }
            BatchWriteBuilder wb = t.newBatchWriteBuilder();
            int n = 0;
            try (IOManager io = IOManager.create(System.getProperty("java.io.tmpdir"));
                    BatchTableWrite w = wb.newWrite(); BatchTableCommit bc = wb.newCommit()) {
                // lookup and full-compaction changelog producers spill to disk.
                w.withIOManager(io);
                for (Map.Entry<BinaryRow, Integer> b : buckets) {
                    w.compact(b.getKey(), b.getValue(), true);
                    n++;
                }
                List<CommitMessage> msgs = w.prepareCommit();
                bc.commit(msgs);
            }
            out.println(JSON.writeValueAsString(JSON.createObjectNode().put("buckets", n)));
        }
    }

    private static boolean unawareAppend(FileStoreTable t) {
        return t.primaryKeys().isEmpty() && t.coreOptions().bucket() == -1;
    }

    /**
     * compactUnaware compacts a bucket-unaware append table as Flink's and Spark's
     * compaction jobs do: the writer of such a table compacts nothing itself, the
     * coordinator plans tasks over the partitions' small files (and, with deletion
     * vectors, files whose rows are mostly deleted), and each task rewrites its files.
     * Two files suffice for a task here, so that the small tables of the tests compact.
     */
    private void compactUnaware(FileStoreTable table) throws Exception {
        Map<String, String> dynamic = new HashMap<>();
        dynamic.put("compaction.min.file-num", "2");
        FileStoreTable t = table.copy(dynamic);
        List<AppendCompactTask> tasks = new AppendCompactCoordinator(t, false).run();
        List<CommitMessage> msgs = new ArrayList<>();
        BaseAppendFileStoreWrite write =
                (BaseAppendFileStoreWrite) t.store().newWrite(UUID.randomUUID().toString());
        try {
            for (AppendCompactTask task : tasks) {
                msgs.add(task.doCompact(t, write));
            }
        } finally {
            write.close();
        }
        try (BatchTableCommit bc = t.newBatchWriteBuilder().newCommit()) {
            bc.commit(msgs);
        }
        out.println(JSON.writeValueAsString(JSON.createObjectNode().put("tasks", tasks.size())));
    }

    /** expire keeps the newest --retain snapshots. */
    private void expire(Map<String, String> a) throws Exception {
        try (Catalog c = catalog(a)) {
            Table t = table(c, need(a, "table"));
            int n = Integer.parseInt(need(a, "retain"));
            int expired = t.newExpireSnapshots()
                    .config(ExpireConfig.builder().snapshotRetainMax(n).snapshotRetainMin(1)
                            .snapshotTimeRetain(java.time.Duration.ZERO).build())
                    .expire();
            out.println(JSON.writeValueAsString(JSON.createObjectNode().put("expired", expired)));
        }
    }
}

//go:build interop

package interop

// Primary-key tables in Paimon's default dynamic bucket mode (bucket = -1),
// written by Flink (paimon-flink-1.20 1.3.1, batch jobs): Flink's bucket
// assigner gives each new key a bucket of its partition and records it in
// HASH index files, opening a new bucket once one holds
// dynamic-bucket.target-row-num keys; with a primary key that leaves out
// the partition key, the mode is cross-partition upsert, a global index
// that deletes a key from its old partition when it moves. For a reader
// the data is ordinary per-bucket LSM data. lakesql must read every
// snapshot and tag exactly as the readers do, and refuse to write, naming
// the feature: it does not implement the assigners.
func init() {
	cases = append(cases, dynamicBucketCases...)
}

// flinkGen is a bounded Flink source of the integers 1 … 40 in column i
// (parallelism 1, so in order).
const flinkGen = `CREATE TEMPORARY TABLE gen (i INT) WITH ('connector' = 'datagen', 'number-of-rows' = '40',
  'fields.i.kind' = 'sequence', 'fields.i.start' = '1', 'fields.i.end' = '40');
`

var dynamicBucketCases = []tableCase{
	{
		// bucket left unset: Paimon's default for a primary-key table.
		// target-row-num 5 spreads 40 keys over several buckets a
		// partition; updates and deletes must find each key's bucket in
		// the HASH index of a previous job.
		name: "javawrites_flink_dynamic_bucket",
		create: flinkSQL(`CREATE TABLE t (dt STRING NOT NULL, id INT NOT NULL, v STRING, n BIGINT, amount DECIMAL(12,2),
  PRIMARY KEY (dt, id) NOT ENFORCED) PARTITIONED BY (dt) WITH ('dynamic-bucket.target-row-num' = '5');
` + flinkGen + `
INSERT INTO t SELECT IF(MOD(i, 4) = 0, '2026-04-17', '2026-04-16'), i,
  IF(MOD(i, 9) = 0, CAST(NULL AS STRING), CONCAT('v', CAST(i AS STRING))), CAST(i AS BIGINT) * 10,
  CAST(i AS DECIMAL(12,2)) / 4 FROM gen;
INSERT INTO t
  SELECT IF(MOD(i, 4) = 0, '2026-04-17', '2026-04-16'), i, CONCAT('u', CAST(i AS STRING)), CAST(NULL AS BIGINT), CAST(-i AS DECIMAL(12,2)) FROM gen WHERE MOD(i, 3) = 0
  UNION ALL SELECT '2026-04-18', i, 'p18', CAST(i AS BIGINT), CAST(i AS DECIMAL(12,2)) FROM gen WHERE i <= 12
  UNION ALL SELECT '2026-04-16', i + 100, 'new', CAST(i AS BIGINT), CAST(NULL AS DECIMAL(12,2)) FROM gen WHERE i <= 7;
CALL sys.create_tag('javawrites_flink_dynamic_bucket.t', 'flink-tag');
UPDATE t SET v = 'upd', amount = amount * 2 WHERE MOD(id, 5) = 0;
DELETE FROM t WHERE MOD(id, 7) = 0;
DELETE FROM t WHERE dt = '2026-04-18';
CALL sys.compact('javawrites_flink_dynamic_bucket.t');
INSERT INTO t VALUES ('2026-04-16', 1, 'after-compact', CAST(NULL AS BIGINT), CAST(NULL AS DECIMAL(12,2))),
  ('2026-04-17', 4, 'after-compact', 4, 0.01), ('2026-04-16', 200, 'new-after-compact', 200, 2.00);
`),
		steps: []string{
			// 40 + 12 + 7 keys, 7 deleted (id MOD 7 = 0), the 11 left
			// in 2026-04-18 truncated, 1 new.
			expect("SELECT COUNT(*) FROM t", "42"),
			expect("SELECT COUNT(DISTINCT `partition`, bucket) >= 8 FROM `t$files`", "1"),
			expect("SELECT CONCAT(v, ':', amount) FROM t WHERE dt = '2026-04-16' AND id = 30", "upd:-60.00"),
			expectError(`INSERT INTO t VALUES ('2026-04-16', 300, 'lakesql', 1, 1.00)`, "lakesql cannot write a dynamic-bucket table (bucket = -1)"),
			expectError(`UPDATE t SET v = 'lakesql' WHERE id = 1`, "lakesql cannot write a dynamic-bucket table (bucket = -1)"),
			expectError(`DELETE FROM t WHERE id = 2`, "lakesql cannot write a dynamic-bucket table (bucket = -1)"),
			expectError(`CALL sys.compact('t')`, "a dynamic-bucket table (bucket = -1)"),
		},
	},
	{
		// cross-partition upsert: the primary key leaves out the partition
		// key, so a key lives in one partition of the table, and a write
		// of it into another moves it (Flink's global index, bootstrapped
		// from the data by each job, deletes it from the old partition's
		// bucket; no HASH index files). Keys move by INSERT, by an UPDATE
		// of the partition column, into a partition truncated later, and
		// back. Flink's CALL sys.compact refuses this bucket mode
		// (KEY_DYNAMIC); the writers' own compaction still runs.
		name: "javawrites_flink_cross_partition",
		create: flinkSQL(`CREATE TABLE t (id INT NOT NULL, dt STRING NOT NULL, v STRING, n BIGINT,
  PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (dt) WITH ('dynamic-bucket.target-row-num' = '5');
` + flinkGen + `
INSERT INTO t SELECT i, CONCAT('2026-04-1', CAST(6 + MOD(i, 3) AS STRING)), CONCAT('v', CAST(i AS STRING)), CAST(i AS BIGINT) FROM gen;
INSERT INTO t SELECT i,
  CASE WHEN MOD(i, 10) = 0 THEN '2026-04-20'
       WHEN MOD(i, 4) = 0 THEN CONCAT('2026-04-1', CAST(6 + MOD(i + 1, 3) AS STRING))
       ELSE CONCAT('2026-04-1', CAST(6 + MOD(i, 3) AS STRING)) END,
  CONCAT('moved', CAST(i AS STRING)), CAST(i AS BIGINT) * 100 FROM gen WHERE MOD(i, 4) = 0 OR MOD(i, 10) = 0 OR MOD(i, 5) = 1;
CALL sys.create_tag('javawrites_flink_cross_partition.t', 'flink-tag');
UPDATE t SET v = 'upd' WHERE MOD(id, 3) = 0;
UPDATE t SET dt = '2026-04-21' WHERE id IN (1, 2);
DELETE FROM t WHERE MOD(id, 7) = 0;
DELETE FROM t WHERE dt = '2026-04-20';
INSERT INTO t VALUES (4, '2026-04-17', 'back', 4), (41, '2026-04-16', 'new', CAST(NULL AS BIGINT));
`),
		steps: []string{
			// 40 keys, 5 deleted (id MOD 7 = 0), the 4 moved to
			// 2026-04-20 truncated, 1 new: one row per key.
			expect("SELECT COUNT(*) FROM t", "32"),
			expect("SELECT COUNT(DISTINCT id) FROM t", "32"),
			expect("SELECT CONCAT(dt, ':', v) FROM t WHERE id = 4", "2026-04-17:back"),
			expect("SELECT CONCAT(dt, ':', v) FROM t WHERE id = 1", "2026-04-21:moved1"),
			expect("SELECT CONCAT(dt, ':', v) FROM t WHERE id = 12", "2026-04-17:upd"),
			expectError(`INSERT INTO t VALUES (50, '2026-04-16', 'lakesql', 1)`, "cross-partition upsert"),
			expectError(`UPDATE t SET v = 'lakesql' WHERE id = 3`, "cross-partition upsert"),
			expectError(`DELETE FROM t WHERE id = 3`, "cross-partition upsert"),
			expectError(`CALL sys.compact('t')`, "a dynamic-bucket table (bucket = -1)"),
		},
	},
	{
		// dynamic buckets with deletion vectors: Flink's batch writes
		// compact each bucket's new files at commit, marking the rows they
		// replace in deletion vectors, index files next to the HASH ones
		// (Java's $table_indexes, which lakesql does not serve, listed 11
		// HASH and 9 DELETION_VECTORS files in the run of 2026-12-05).
		name: "javawrites_flink_dynamic_bucket_dv",
		create: flinkSQL(`CREATE TABLE t (dt STRING NOT NULL, id INT NOT NULL, v STRING,
  PRIMARY KEY (dt, id) NOT ENFORCED) PARTITIONED BY (dt)
  WITH ('bucket' = '-1', 'dynamic-bucket.target-row-num' = '5', 'deletion-vectors.enabled' = 'true');
` + flinkGen + `
INSERT INTO t SELECT IF(MOD(i, 4) = 0, '2026-04-17', '2026-04-16'), i, CONCAT('v', CAST(i AS STRING)) FROM gen;
INSERT INTO t SELECT IF(MOD(i, 4) = 0, '2026-04-17', '2026-04-16'), i, CONCAT('u', CAST(i AS STRING)) FROM gen WHERE MOD(i, 3) = 0
  UNION ALL SELECT '2026-04-16', i + 100, 'new' FROM gen WHERE i <= 7;
UPDATE t SET v = 'upd' WHERE MOD(id, 5) = 0;
DELETE FROM t WHERE MOD(id, 7) = 0;
INSERT INTO t VALUES ('2026-04-16', 1, 'last'), ('2026-04-17', 200, 'new');
`),
		steps: []string{
			// 40 + 7 keys, 6 deleted (id MOD 7 = 0), 1 new.
			expect("SELECT COUNT(*) FROM t", "42"),
			// Writes and compaction are refused for the dynamic buckets.
			expectError(`INSERT INTO t VALUES ('2026-04-16', 300, 'lakesql')`, "lakesql cannot write a dynamic-bucket table (bucket = -1)"),
			expectError(`CALL sys.compact('t')`, "a dynamic-bucket table (bucket = -1)"),
		},
	},
}

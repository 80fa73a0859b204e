// Package slurm writes and submits the sbatch job-array scripts that run a
// sweep's shards on a Slurm cluster. Each array task runs
// `crosslink run SPEC --shard auto`, which finds its shard from the task id
// (see sweep.AutoShard), so the scripts carry no scenario lists: a task
// computes its share of the plan as every other task does.
//
// Slurm caps array task ids below MaxArraySize (slurm.conf), so a sweep of
// more shards is split into several arrays, each numbered from 0, whose
// scripts set CROSSLINK_SHARD_OFFSET to the first shard they cover.
package slurm

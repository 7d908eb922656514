// SPDX-License-Identifier: GPL-2.0-or-later
// Loads a `latscope export --perfetto` file with the trace engine of Chrome DevTools' Performance
// panel (npm @paulirish/trace_engine, installed by scripts/install-deps.sh), a real viewer's
// parser that runs offline, and prints what it built as "key value" lines, or "error: ..." for
// what it did not take as the file says:
//   - the file loads (the engine throws on what it cannot parse);
//   - a thread per named track, named by the file's thread_name metadata;
//   - on every thread, the X events of the file on it, none nested under another (the
//     engine nests a slice that starts inside another: the tracks' slices never overlap)
//     but the zero-length wakings, which lie inside their waker's running slice;
//   - the trace's bounds: the first ts and the last ts + dur of the file.
// Usage: node export_check_devtools.mjs FILE [ENGINE_DIR]
import fs from 'node:fs';

const file = process.argv[2];
const dir = process.argv[3] ||
	'/usr/local/lib/latscope-npm/node_modules/@paulirish/trace_engine';
const errors = [];
const err = (m) => { if (errors.length < 20) errors.push(m); };

const {analyzeTrace} = await import(dir + '/analyze-trace.mjs');
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
const want = new Map();		// "pid/tid" -> X events in the file
const names = new Map();	// "pid/tid" -> thread_name
let min = Infinity, max = -Infinity;
for (const e of doc.traceEvents) {
	const key = e.pid + '/' + e.tid;
	if (e.ph === 'X')
		want.set(key, (want.get(key) || 0) + 1);
	if (e.ph === 'M' && e.name === 'thread_name')
		names.set(key, e.args.name);
	if (e.ph !== 'M') {
		min = Math.min(min, e.ts);
		max = Math.max(max, e.ts + (e.ph === 'X' ? e.dur : 0));
	}
}

let parsed;
try {
	parsed = (await analyzeTrace(file)).parsedTrace.data;
} catch (e) {
	console.log('error: the engine did not load the file: ' + e.message);
	process.exit(0);
}
let threads = 0, cpus = 0, xs = 0;
const seen = new Set();
for (const [pid, p] of parsed.Renderer.processes) {
	for (const [tid, t] of p.threads) {
		const key = pid + '/' + tid;
		let x = 0, nested = 0;

		threads++;
		seen.add(key);
		if (t.name !== names.get(key))
			err(`thread ${key}: named ${JSON.stringify(t.name)}, the file says ` +
			    JSON.stringify(names.get(key)));
		cpus += /^CPU [0-9]+$/.test(t.name || '');
		for (const e of t.entries)
			x += e.ph === 'X';
		for (const r of t.tree.roots)
			nested += r.children.filter((c) => (c.entry.dur || 0) > 0).length;
		if (x !== (want.get(key) || 0))
			err(`thread ${key} (${t.name}): ${x} slices, the file has ${want.get(key) || 0}`);
		if (nested)
			err(`thread ${key} (${t.name}): ${nested} slices nested in others (overlap)`);
		xs += x;
	}
}
for (const key of want.keys())
	if (!seen.has(key))
		err(`track ${key} (${names.get(key)}): no thread in the engine`);
const b = parsed.Meta.traceBounds;
// the engine may round to microseconds
if (Math.abs(b.min - min) > 1 || Math.abs(b.max - max) > 1)
	err(`bounds ${b.min} .. ${b.max}, the file ${min} .. ${max}`);
console.log('threads ' + threads);
console.log('threads.cpu ' + cpus);
console.log('X ' + xs);
console.log('generic ' + (parsed.Meta.traceIsGeneric ? 1 : 0));
// DevTools binds a flow event to an event of the same ts, pid, tid and cat (not to the
// enclosing slice as the format's bp "e" says, which Perfetto and chrome://tracing follow):
// latscope's arrows bind to slices of another cat, so DevTools draws none
console.log('flows.devtools ' + parsed.Flows.flows.length);
for (const m of errors)
	console.log('error: ' + m);

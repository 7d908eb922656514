#!/usr/bin/env python3
# Prints "NAME VALUE" lines read from the JSON files of test_merge.sh (one
# python start for all of them: it costs a second on a loaded machine).
import json
import sys

d = {}
for arg in sys.argv[1:]:
    name, path = arg.split('=', 1)
    with open(path) as f:
        d[name] = json.load(f)


def out(name, value):
    print(name, json.dumps(value, sort_keys=True, separators=(',', ':')))


def wakeup(doc):
    return [b for b in doc['inputs'][0]['blocks'] if 'wakeup' in b][0]['wakeup']


if 'whole' in d:
    w = wakeup(d['whole'])
    out('first_ns', w['first_ns'])
    out('last_ns', w['last_ns'])
    s = d['whole']['inputs'][0]['summary']['all']
    keys = ('count', 'min_ns', 'max_ns', 'p50_ns', 'p90_ns', 'p99_ns', 'p999_ns')
    out('whole_is_analyze_all', all(s[k] == w['all'][k] for k in keys))
for name in ('parts', 'whole_m', 'ab', 'ab2'):
    if name in d:
        for k in ('all', 'comms', 'cpus', 'worst', 'hosts'):
            out(name + '.' + k, d[name]['summary'][k])
        a = d[name]['summary']['all']
        for k in ('count', 'max_ns', 'sum_ns', 'p50_ns', 'p90_ns', 'p99_ns', 'p999_ns',
                  'preempt_waits', 'untrusted'):
            print(name + '.all.' + k, a[k])
        print(name + '.hostline', ' '.join('%s/%d/%d' % (h['host'], h['traces'], h['count'])
                                        for h in d[name]['summary']['hosts']))
        w = d[name]['summary']['worst'][0]
        print(name + '.worst0', w['latency_ns'], w['host'], w['trace'].endswith('.dat'))
for name in ('p2', 'lost'):
    if name in d:
        s = d[name]['inputs'][0]['summary']
        print(name + '.count', s['all']['count'])
        print(name + '.line', s['all']['count'], s['all']['preempt_waits'],
              s['all']['untrusted'], s['all']['max_ns'], s['hosts'][0]['host'])

# test/gen/xdiff.py SEED N MODERN -- writes the random cross-construct queries
# of the xdiff suites (sql/include/xdiff_queries.sql) to stdout; queries that stop early
# (LIMIT: SAFE) hold no expression that can raise: WHERE,
# joins, GROUP BY, DISTINCT, ORDER BY/LIMIT, subqueries, UNION ALL and (MODERN=1)
# windows over the tables of sql/include/xdiff.sql. A test harness; the
# generated files are committed, so the suites do not need Python.
import random, sys
seed=int(sys.argv[1]); n=int(sys.argv[2]); modern=sys.argv[3]=='1'
# EXT (a 4th argument '1'): more functions, aggregates, orders and window forms (the
# committed xdiff_queries.sql is made without it, so it stays as generated)
ext=len(sys.argv)>4 and sys.argv[4]=='1'
R=random.Random(seed)
def pick(*a): return R.choice(a)
INT=['xd1.k','xd1.g','xd1.id','xd2.x','xd2.k']
SAFE=False
def iexpr(d=0):
    if d>2 or R.random()<0.35: return pick(*INT, '3', '-2', '0')
    a,b=iexpr(d+1),iexpr(d+1)
    if SAFE:
        return pick(f'coalesce({a}, {b})',f'nullif({a}, {b})',f'greatest({a}, {b})',f'least({a}, {b})',f'mod({a}, 7)',f'({a} / 3)',
                    f'length({sexpr(d+1)})',f'extract(year from xd1.d)::int',f'extract(dow from xd1.d)::int')
    return pick(f'({a} + {b})',f'({a} - {b})',f'({a} * {b})',f'abs({a})',f'coalesce({a}, {b})',f'nullif({a}, {b})',
                f'greatest({a}, {b})',f'least({a}, {b})',f'mod({a}, 7)',f'({a} / 3)',f'CASE WHEN {cond(d+1)} THEN {a} ELSE {b} END',
                f'length({sexpr(d+1)})',f'extract(year from xd1.d)::int',f'extract(month from xd1.ts)::int',f'extract(dow from xd1.d)::int',
                f'strpos({sexpr(d+1)}, \'a\')', f'({a})::smallint')
    if ext and R.random()<0.4:
        return pick(f'sign({a})', f'({a} % 4)', f'div({a}, 3)', f'(extract(epoch from xd1.ts))::bigint', f'extract(doy from xd1.d)::int',
                    f'extract(isodow from xd1.ts)::int', f'extract(week from xd1.d)::int', f'extract(quarter from xd1.ts)::int',
                    f'length(lpad({sexpr(d+1)}, 4, \'*\'))', f'ascii({sexpr(d+1)})', f'char_length(md5({sexpr(d+1)}))',
                    f'(xd1.d - date \'2020-01-01\')', f'gcd({a}, 6)', f'({a} >> 1)', f'({a} & 5)', f'({a} | 2)')
def fexpr(d=0):
    if d>2 or R.random()<0.4: return pick('xd1.f','xd1.f','0.25::float8','(-1.5)::float8')
    a,b=fexpr(d+1),fexpr(d+1)
    if SAFE:
        return pick(f'abs({a})',f'floor({a})',f'round({a})',f'greatest({a}, {b})',f'coalesce({a}, {b})')
    if ext and not SAFE and R.random()<0.4:
        return pick(f'sqrt(abs({a}))', f'ceil({a})', f'trunc({a})', f'round({a}::numeric, 1)::float8', f'sign({a})', f'cbrt({a})',
                    f'({a} / 4)', f'least({a}, {b})', f'(- {a})', f'nullif({a}, {b})')
    return pick(f'({a} + {b})',f'({a} - {b})',f'({a} * {b})',f'abs({a})',f'floor({a})',f'round({a})',f'greatest({a}, {b})',f'coalesce({a}, {b})',f'({iexpr(d+1)})::float8')
def rexpr(d=0):
    if d>1 or R.random()<0.4: return pick('xd1.r','0.5::real')
    a,b=rexpr(d+1),rexpr(d+1)
    if SAFE:
        return f'(- {a})'
    return pick(f'({a} + {b})',f'({a} * {b})',f'({a} - {b})',f'({a} / {b})',f'(- {a})')
def sexpr(d=0):
    if d>2 or R.random()<0.4: return pick('xd1.s','xd2.s',"'ab'","''")
    a,b=sexpr(d+1),sexpr(d+1)
    return pick(f'({a} || {b})',f'lower({a})',f'upper({a})',f'substr({a}, 2)',f'substr({a}, 1, 2)',f'coalesce({a}, {b})',
                f"replace({a}, 'a', 'xy')",f"split_part({a}, 'b', 1)",f'left({a}, 2)',f'right({a}, 1)',f'reverse({a})',
                f'({iexpr(d+1)})::text', f"btrim({a})", f"CASE WHEN {cond(d+1)} THEN {a} ELSE {b} END")
    if ext and R.random()<0.5:
        return pick(f"lpad({a}, 3, 'xy')", f"rpad({a}, 2)", f"repeat({a}, 2)", f"md5({a})", f"initcap({a})", f"ltrim({a}, 'a')",
                    f"rtrim({a}, 'b')", f"translate({a}, 'ab', 'x')", f"regexp_replace({a}, 'a', 'Q')", f"regexp_replace({a}, '[ab]', '', 'g')",
                    f"concat({a}, '-', {b})", f"concat_ws('/', {a}, {b})", f"to_char(xd1.ts, 'YYYY-MM-DD HH24:MI')", f"to_char(xd1.d, 'YYYY-MM')",
                    f"(date_trunc('week', xd1.ts))::text", f"(xd1.d)::text", f"(xd1.ts)::text", f"substring({a} from 2 for 1)", f"overlay({a} placing 'Z' from 1 for 1)",
                    f"quote_literal({a})", f"(starts_with({a}, 'a'))::text", f"split_part({a}, 'a', -1)")
def dexpr():
    if ext and R.random()<0.4:
        return pick("date_trunc('quarter', xd1.d)::date", "(xd1.d - 7)", "make_date(2020, 2, 29)", "(date_trunc('day', xd1.ts))::date",
                    "greatest(xd1.d, '2020-02-01'::date)", "coalesce(xd1.d, xd1.ts::date)")
    return pick('xd1.d','(xd1.d + 1)','xd1.ts::date',"date_trunc('month', xd1.ts)::date")
def cond(d=0):
    if d>2 or R.random()<0.45:
        t=R.random()
        if t<0.3: return f'{iexpr(d+1)} {pick("=","<>","<",">","<=",">=")} {iexpr(d+1)}'
        if t<0.45: return f'{fexpr(d+1)} {pick("=","<",">=")} {pick("0","1.5","xd1.f")}'
        if t<0.55: return f'{sexpr(d+1)} {pick("=","<>","<",">")} {pick(chr(39)+"b"+chr(39),"xd1.s","xd2.s")}'
        if t<0.62: return f'{sexpr(d+1)} {pick("LIKE","NOT LIKE")} {pick(chr(39)+"%a%"+chr(39),chr(39)+"a_"+chr(39))}'
        if t<0.7: return f'{pick(*INT)} {pick("IN","NOT IN")} (1, 3, NULL, 5)'
        if t<0.76: return f'{pick(*INT,"xd1.s","xd1.f","xd1.d")} IS {pick("","NOT ")}NULL'
        if t<0.82: return f'{dexpr()} {pick("<",">=","=")} {pick(chr(39)+"2020-03-01"+chr(39)+"::date","xd1.d")}'
        if t<0.88: return f'{rexpr(d+1)} {pick("<",">")} {pick("1::real","0.5")}'
        if t<0.94: return 'xd1.ts ' + pick('<','>=') + ' ' + pick("'2020-06-01 12:00+02'::timestamptz", "now() - interval '7 years'")
        if ext and R.random()<0.5:
            return pick(f'{sexpr(d+1)} ILIKE {pick(chr(39)+"%B%"+chr(39),chr(39)+"ü%"+chr(39))}', f'{sexpr(d+1)} ~ {pick(chr(39)+"^a"+chr(39),chr(39)+"b$"+chr(39))}',
                        f'{pick(*INT)} = ANY (ARRAY[1, 2, {pick(*INT)}])', f'{sexpr(d+1)} IN (\'a\', \'\', NULL)', f'{iexpr(d+1)} IS DISTINCT FROM {pick(*INT)}',
                        f'xd1.ts::date = xd1.d', f"date_trunc('hour', xd1.ts) >= '2020-03-01 05:00+00'", f'{fexpr(d+1)} IS NOT DISTINCT FROM xd1.f',
                        f'starts_with({sexpr(d+1)}, \'a\')', f'xd1.f = \'NaN\'::float8', f'{sexpr(d+1)} >= ALL (ARRAY[\'a\', \'b\'])')
        return f'{iexpr(d+1)} BETWEEN {iexpr(d+1)} AND {iexpr(d+1)}'
    a,b=cond(d+1),cond(d+1)
    return pick(f'({a} AND {b})',f'({a} OR {b})',f'NOT ({a})',f'({a}) IS DISTINCT FROM ({b})',f'({a}) IS NOT TRUE')
AGG_I=lambda: pick(f'count(*)',f'count({iexpr(1)})',f'sum({iexpr(1)})',f'min({iexpr(1)})',f'max({iexpr(1)})',f'avg({iexpr(1)})',
                   f'count(DISTINCT {pick(*INT)})',f'bool_and({cond(2)})',f'bool_or({cond(2)})',f'min({sexpr(1)})',f'max({dexpr()})',
                   (lambda e: f"string_agg({e}, ',' ORDER BY {e})")(sexpr(2)), f'sum(xd1.f)', f'stddev_samp({pick(*INT)})', f'bit_or({pick(*INT)})',
                   (lambda e: f'array_agg({e} ORDER BY {e} NULLS FIRST)')(pick(*INT)), f'max({fexpr(1)})', f'count(*) FILTER (WHERE {cond(2)})')
AGG_X=lambda: pick(f'count(DISTINCT {sexpr(1)})', f'string_agg(DISTINCT xd1.s, \',\' ORDER BY xd1.s)', f'array_agg(DISTINCT {pick(*INT)} ORDER BY {pick(*INT)})' if False else f'array_agg(DISTINCT xd1.g ORDER BY xd1.g)',
                   f'mode() WITHIN GROUP (ORDER BY {pick(*INT)})', f'percentile_disc(0.5) WITHIN GROUP (ORDER BY {pick(*INT)})',
                   f'percentile_cont(ARRAY[0.25, 0.5]) WITHIN GROUP (ORDER BY {pick(*INT)})', f'var_pop({pick(*INT)})', f'regr_count({pick(*INT)}, {pick(*INT)})', f'bit_and({pick(*INT)})', f'bit_xor({pick(*INT)})',
                   f'every({cond(2)})', f'count(DISTINCT ({pick(*INT)}, xd1.s))' if False else f'count(DISTINCT xd1.s)', f'min(xd1.ts)', f'max(xd1.d)',
                   f'avg(xd1.f)', f'min(xd1.r)', f'max(xd1.r)', f'variance({pick(*INT)})', f'sum({iexpr(1)}) FILTER (WHERE {cond(2)})', f'json_agg(xd1.g ORDER BY xd1.id)' if False else f'min({sexpr(1)} ORDER BY 1)' if False else f'max({sexpr(1)})')
# (no float corr/covar/regr_slope/stddev or real sums: PostgreSQL rounds at every row, so
# their last bits follow the order the rows are read in: README "What is sent")
def AGG():
    return AGG_X() if ext and R.random()<0.4 else AGG_I()
def query():
    global SAFE
    SAFE = R.random()<0.35
    join = R.random()<0.45
    # joins: which rows a side's condition sees is the plan's (26.5 filters a side by the
    # other's keys first; PostgreSQL's index nested loop would too): nothing that raises
    SAFE = SAFE or join
    frm = 'xd1' if not join else pick('xd1 JOIN xd2 ON xd1.k = xd2.k','xd1 LEFT JOIN xd2 ON xd1.k = xd2.k','xd1 JOIN xd2 ON xd1.id = xd2.id AND xd1.s = xd2.s','xd1 FULL JOIN xd2 ON xd1.k = xd2.k')
    if join and ext and R.random()<0.4:
        frm = pick('xd1 LEFT JOIN xd2 ON xd1.k = xd2.k AND xd2.x > 0', 'xd1 RIGHT JOIN xd2 ON xd1.k = xd2.k',
                   'xd1 JOIN xd2 ON xd1.k = xd2.k JOIN xd1 xb ON xb.id = xd2.id', 'xd1 LEFT JOIN xd2 ON xd1.s = xd2.s',
                   'xd1 JOIN xd2 ON xd1.g = xd2.k AND xd1.s < xd2.s', 'xd1 FULL JOIN xd2 ON xd1.id = xd2.id AND xd2.x < 0')
    w = f' WHERE {cond()}' if R.random()<0.8 else ''
    if not join:
        w = w.replace('xd2.','xd1.').replace('xd1.x','xd1.g')
    def fix(e): return e if join else e.replace('xd2.','xd1.').replace('xd1.x','xd1.g')
    kind=R.random()
    if kind<0.35:
        cols=[fix(pick(iexpr(),sexpr(),fexpr(),dexpr(),'xd1.id','xd1.ts')) for _ in range(R.randint(1,3))]
        q=f'SELECT {", ".join(cols)} FROM {frm}{w}'
        # DISTINCT of floats keeps -0 or 0 (equal), as either plan may: not compared as text
        if R.random()<0.3 and not any(t in c for c in cols for t in ('.f', 'float8', '.r', 'real')):
            q=f'SELECT DISTINCT {", ".join(cols)} FROM {frm}{w}'
        if SAFE and ext and R.random()<0.5:
            dirs=[pick('', ' DESC', ' DESC NULLS LAST', ' NULLS FIRST') for _ in cols]
            if R.random()<0.3 and not q.startswith('SELECT DISTINCT') and not any(t in c for c in cols for t in ('.f', 'float8', '.r', 'real')):
                q=q.replace('SELECT ', 'SELECT DISTINCT ON (1) ', 1)
            q+=f' ORDER BY {", ".join(str(i+1)+dirs[i] for i in range(len(cols)))} LIMIT {R.randint(1,8)}'
            if R.random()<0.4: q+=f' OFFSET {R.randint(1,5)}'
            return q, True
        if SAFE:
            q+=f' ORDER BY {", ".join(str(i+1) for i in range(len(cols)))} LIMIT {R.randint(1,8)}'
            return q, True
        return q, False
    if kind<0.8 or (not modern and kind<0.9):
        keys=[fix(pick(iexpr(1),sexpr(1),dexpr(),'xd1.g','xd1.s',"extract(hour from xd1.ts)")) for _ in range(R.randint(0,2))]
        keys=[k for k in keys if 'xd' in k and 'count(' not in k]
        aggs=[fix(AGG()) for _ in range(R.randint(1,3))]
        # min/max alone without keys: PostgreSQL may plan them as an ordered LIMIT 1 (planagg),
        # which stops before rows that raise, as an index would: a count beside them keeps the plan
        if ext and not keys and all(a.startswith(('min(', 'max(')) for a in aggs): aggs.append('count(*)')
        q=f'SELECT {", ".join(keys+aggs)} FROM {frm}{w}'
        if keys:
            gb=pick('', 'ROLLUP', 'CUBE') if R.random()<0.15 else ''
            q+=f' GROUP BY {gb}({", ".join(keys)})' if gb else f' GROUP BY {", ".join(keys)}'
            if R.random()<0.3: q+=f' HAVING {fix(pick("count(*) > 1", "sum(xd1.k) < 10", "min(xd1.s) <> "+chr(39)+"a"+chr(39), "bool_or("+cond(2)+")"))}'
            # not over ROLLUP/CUBE: PostgreSQL 15 drops a key WHERE makes constant from the
            # sort although grouping sets make it NULL too (its own order is then arbitrary)
            if SAFE and not gb:
                n=len(keys)+len(aggs); q+=f' ORDER BY {", ".join(str(i+1) for i in range(n))} LIMIT {R.randint(1,5)}'; return q, True
        return q, False
    if kind<0.92:
        sub=pick(f"EXISTS (SELECT 1 FROM xd2 WHERE xd2.k = xd1.k AND {pick('xd2.x > 0', 'xd2.s IS NULL', 'xd2.s < xd1.s', 'xd2.x < xd1.g')})",
                 'NOT EXISTS (SELECT 1 FROM xd2 WHERE xd2.k = xd1.k)',
                 'xd1.k IN (SELECT k FROM xd2 WHERE x > 0)', 'xd1.s IN (SELECT s FROM xd2)',
                 'xd1.k NOT IN (SELECT k FROM xd2 WHERE k IS NOT NULL)',
                 'xd1.g < (SELECT count(*) FROM xd2 WHERE xd2.k = xd1.k)')
        if R.random()<0.5:
            return f'SELECT xd1.id, xd1.s FROM xd1 WHERE {sub}', False
        return f'SELECT xd1.g, count(*), sum(xd1.k) FROM xd1 WHERE {sub} GROUP BY xd1.g', False
    if kind<0.96:
        w2=w.replace('xd2.','xd1.').replace('xd1.x','xd1.g')
        c=pick('xd1.k','xd1.s','xd1.g','xd1.d')
        inner=f'SELECT {c} AS c, xd1.id FROM xd1{w2} UNION ALL SELECT {c.replace("xd1.","xd1b.")}, xd1b.id FROM xd1 xd1b'
        return pick(f'SELECT c, count(*) FROM ({inner}) u GROUP BY c', f'SELECT count(*), min(c), max(c) FROM ({inner}) u', f'SELECT c, id FROM ({inner}) u ORDER BY c, id'), False
    # windows
    part=fix(pick('xd1.g','xd1.k','xd1.s % 2' if False else 'xd1.g'))
    fn=pick('row_number()','rank()','dense_rank()','count(*)','sum(xd1.k)','lag(xd1.k)','lead(xd1.s, 1, '+chr(39)+'z'+chr(39)+')','first_value(xd1.s)','min(xd1.k)','max(xd1.s)','ntile(3)','percent_rank()','cume_dist()','avg(xd1.k)','last_value(xd1.id)','nth_value(xd1.s, 2)','bool_and(xd1.k > 0)','string_agg(xd1.s, '+chr(39)+','+chr(39)+')')
    order=pick('xd1.id','xd1.g, xd1.id','xd1.id DESC','xd1.k NULLS FIRST, xd1.id')
    frame=pick('','','ROWS BETWEEN 1 PRECEDING AND CURRENT ROW','ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING','ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING')
    if ext and R.random()<0.5:
        fn=pick(fn,'lag(xd1.k, 2, -1)','lead(xd1.id, 3)','sum(xd1.f)','count(xd1.s)','max(xd1.d)','min(xd1.ts)','nth_value(xd1.k, 1)','ntile(2)')
        frame=pick(frame,'RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW','RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING','ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING','ROWS UNBOUNDED PRECEDING')
        # peers under RANGE: only functions whose value does not follow the peers' order
        if frame.startswith('RANGE'):
            order=pick('xd1.g','xd1.id','xd1.k')
            fn=pick('count(*)','sum(xd1.k)','min(xd1.k)','max(xd1.s)','bool_and(xd1.k > 0)','avg(xd1.k)','sum(xd1.f)','max(xd1.d)','count(xd1.s)')
    if fn.startswith(('rank','dense_rank','percent_rank','cume_dist')): order=pick('xd1.g','xd1.k','xd1.s')
    q=f'SELECT xd1.id, {fn} OVER (PARTITION BY {part} ORDER BY {order} {frame}) FROM xd1{w.replace("xd2.","xd1.").replace("xd1.x","xd1.g")}'
    return q, False
out=[]
for i in range(n):
    q,ordered=query()
    out.append(f"  ({i + 1}, {'true' if ordered else 'false'}, $q${q}$q$)")
print(f"-- generated by test/gen/xdiff.py {seed} {n} {int(modern)}: do not edit")
print(f"INSERT INTO xd_queries VALUES")
print(',\n'.join(out) + ';')

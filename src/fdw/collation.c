/*-------------------------------------------------------------------------
 * collation.c
 *	  Which PostgreSQL collations sort text as ClickHouse does (by bytes), so
 *	  that text comparisons, ORDER BY, min/max and GROUP BY may be sent.
 *
 * src/fdw/collation.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/syscache.h"

#include "chfdw.h"
#include "shippable.h"

/* A libc locale name that orders by code point: C.UTF-8 / C.utf8 (glibc). */
static bool
codepoint_locale(const char *name)
{
	return pg_strcasecmp(name, "C.UTF-8") == 0 || pg_strcasecmp(name, "C.utf8") == 0;
}

/*
 * Does this libc collation order UTF-8 text by code point, i.e. by bytes?
 * C and POSIX do (lc_collate_is_c); so does C.UTF-8 in a UTF-8 database
 * (glibc's C.UTF-8 collates by code point since 2.35: Debian 12 ships
 * 2.36). ICU collations never count. The default collation is the
 * database's. Cached per collation: the catalogs do not change under a
 * running plan.
 */
static bool
collation_orders_by_codepoint(Oid collid)
{
	static Oid	cached_coll = InvalidOid;
	static bool cached_result = false;
	bool		result = false;

	if (lc_collate_is_c(collid))
		return true;
	if (GetDatabaseEncoding() != PG_UTF8)
		return false;
	if (collid == cached_coll)
		return cached_result;
	if (collid == DEFAULT_COLLATION_OID)
	{
		HeapTuple	tp = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));

		if (HeapTupleIsValid(tp))
		{
			Form_pg_database db = (Form_pg_database) GETSTRUCT(tp);
			bool		isnull;
			Datum		d = SysCacheGetAttr(DATABASEOID, tp, Anum_pg_database_datcollate, &isnull);

			result = db->datlocprovider == COLLPROVIDER_LIBC && !isnull &&
				codepoint_locale(TextDatumGetCString(d));
			ReleaseSysCache(tp);
		}
	}
	else
	{
		HeapTuple	tp = SearchSysCache1(COLLOID, ObjectIdGetDatum(collid));

		if (HeapTupleIsValid(tp))
		{
			Form_pg_collation c = (Form_pg_collation) GETSTRUCT(tp);
			bool		isnull;
			Datum		d = SysCacheGetAttr(COLLOID, tp, Anum_pg_collation_collcollate, &isnull);

			result = c->collprovider == COLLPROVIDER_LIBC && c->collisdeterministic &&
				!isnull && codepoint_locale(TextDatumGetCString(d));
			ReleaseSysCache(tp);
		}
	}
	cached_coll = collid;
	cached_result = result;
	return result;
}

/*
 * Does text under this collation sort as ClickHouse sorts it (by bytes)?
 * The collations that order by code point do (C, POSIX, C.UTF-8 in a
 * UTF-8 database); others when the table declares it (text_sorts_as_bytes)
 * and the collation is deterministic.
 */
bool
chfdw_ordering_collation_ok(ShipCtx *cx, Oid collid)
{
	return !OidIsValid(collid) || collation_orders_by_codepoint(collid) ||
		(cx->text_bytes && get_collation_isdeterministic(collid));
}


-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- IPv4 (UInt32 LE of the address number) and IPv6 (16 network-order bytes).
SELECT i,
  [toIPv4('0.0.0.0'), toIPv4('192.168.0.1'), toIPv4('255.255.255.255'), toIPv4('1.2.3.4')][i + 1] AS ip4,
  [toIPv6('::'), toIPv6('::1'), toIPv6('2001:db8::ff00:42:8329'), toIPv6('::ffff:1.2.3.4')][i + 1] AS ip6
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT Native

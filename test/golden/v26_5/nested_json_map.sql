-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Map(String, JSON): the JSON prefix comes before the Map's offsets. Refused (CH_ERR_UNSUPPORTED).
SELECT i,
  CAST([map('k', '{"y": "s"}'), map(), map('p', '{}', 'q', '{"r": 1}')][i + 1] AS Map(String, JSON)) AS mj
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native

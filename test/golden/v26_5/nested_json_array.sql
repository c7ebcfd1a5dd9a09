-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Array(JSON): the JSON prefix comes before the Array's offsets. Refused (CH_ERR_UNSUPPORTED).
SELECT i,
  CAST([['{"z": [1, 2]}'], [], ['{}', '{"z": 3}']][i + 1] AS Array(JSON)) AS aj
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native

#!/usr/bin/env python3
"""test/ch_config.py -- write a ClickHouse 18.16 config for a throwaway server.

    ch_config.py ETC DATA LOGDIR HTTP_PORT TCP_PORT HTTPS_PORT [CLUSTER [ZOOKEEPER]]

Copies /etc/clickhouse-server/{config,users}.xml into ETC with the given ports
(loopback only), data and log folders, HTTPS with the certificate in ETC/tls
(server.crt, server.key: the caller makes them), UTC, and the test user
tester/tester_pw. CLUSTER (optional) replaces the
remote_servers section with one test cluster, written as
"name=host:port,host:port;host:port,host:port": shards separated by ";",
the replicas of a shard by "," (internal_replication false: a Distributed
table writes every replica itself). ZOOKEEPER (optional, "host:port") adds
a <zookeeper> section naming that one ZooKeeper server, which distributed
DDL (ON CLUSTER, queued under <distributed_ddl>'s path, kept from the
stock config) needs; short timeouts, so that a ZooKeeper that is down
makes an ON CLUSTER statement fail within seconds. Used by test/servers.sh
and test/cluster.sh.
"""
import sys, xml.etree.ElementTree as ET
etc, data, logdir, http_port, tcp_port, https_port = sys.argv[1:7]
cluster = sys.argv[7] if len(sys.argv) > 7 else None
zookeeper = sys.argv[8] if len(sys.argv) > 8 else None
data = data.rstrip('/') + '/'

def drop_incl(root):
    """incl= refers to /etc/metrika.xml substitutions: drop optional included
    elements (zookeeper, macros) and the incl attribute everywhere else."""
    for parent in list(root.iter()):
        for el in list(parent):
            if 'incl' in el.attrib:
                if el.attrib.get('optional') in ('true', '1'):
                    parent.remove(el)
                    continue
                del el.attrib['incl']
                el.attrib.pop('replace', None)

def setchild(parent, tag, text):
    el = parent.find(tag)
    if el is None:
        el = ET.SubElement(parent, tag)
    el.text = text
    return el

# ---- config.xml
tree = ET.parse(f'{etc}/config.xml')
root = tree.getroot()
drop_incl(root)

logger = root.find('logger')
if logger is None:
    logger = ET.SubElement(root, 'logger')
setchild(logger, 'level', 'information')
setchild(logger, 'log', f'{logdir}/clickhouse-server.log')
setchild(logger, 'errorlog', f'{logdir}/clickhouse-server.err.log')
setchild(logger, 'size', '100M')
setchild(logger, 'count', '2')

setchild(root, 'http_port', http_port)
setchild(root, 'tcp_port', tcp_port)
# no interserver / TLS / other protocol ports
for tag in ('https_port', 'tcp_port_secure', 'interserver_http_port',
            'interserver_https_port', 'interserver_http_host', 'mysql_port',
            'postgresql_port', 'grpc_port', 'prometheus', 'graphite',
            'listen_host', 'listen_try'):
    for el in root.findall(tag):
        root.remove(el)
setchild(root, 'listen_host', '127.0.0.1')

# HTTPS on http_port + 320 with the self-signed certificate
ssl = root.find('openSSL')
if ssl is None:
    ssl = ET.SubElement(root, 'openSSL')
for el in ssl.findall('server'):
    ssl.remove(el)
srv = ET.SubElement(ssl, 'server')
for tag, text in (('certificateFile', f'{etc}/tls/server.crt'),
                  ('privateKeyFile', f'{etc}/tls/server.key'),
                  ('verificationMode', 'none'), ('loadDefaultCAFile', 'false'),
                  ('cacheSessions', 'true'), ('disableProtocols', 'sslv2,sslv3'),
                  ('preferServerCiphers', 'true')):
    setchild(srv, tag, text)
setchild(root, 'https_port', https_port)
# native TCP over TLS on http_port + 321, same certificate
setchild(root, 'tcp_port_secure', str(int(https_port) + 1))

setchild(root, 'path', data)
setchild(root, 'tmp_path', data + 'tmp/')
setchild(root, 'user_files_path', data + 'user_files/')
setchild(root, 'format_schema_path', data + 'format_schemas/')
setchild(root, 'users_config', f'{etc}/users.xml')
setchild(root, 'timezone', 'UTC')
setchild(root, 'mark_cache_size', str(512 << 20))
setchild(root, 'uncompressed_cache_size', str(512 << 20))
setchild(root, 'mlock_executable', 'false')

# any remaining filesystem path under the system locations
for el in root.iter():
    t = (el.text or '').strip()
    if t.startswith('/var/lib/clickhouse'):
        el.text = data + t[len('/var/lib/clickhouse'):].lstrip('/')
    elif t.startswith('/var/log/clickhouse-server'):
        el.text = logdir + '/' + t[len('/var/log/clickhouse-server'):].lstrip('/')

# test clusters: point at our own TCP port; drop the TLS one
rs = root.find('remote_servers')
if rs is not None:
    for cl in list(rs):
        if cl.find('.//secure') is not None:
            rs.remove(cl)
            continue
        for port in cl.iter('port'):
            port.text = tcp_port
        for host in cl.iter('host'):
            host.text = '127.0.0.1'   # we listen on IPv4 loopback only

if cluster:
    if rs is None:
        rs = ET.SubElement(root, 'remote_servers')
    for cl in list(rs):
        rs.remove(cl)
    name, shards = cluster.split('=', 1)
    cl = ET.SubElement(rs, name)
    for shard in shards.split(';'):
        sh = ET.SubElement(cl, 'shard')
        ET.SubElement(sh, 'internal_replication').text = 'false'
        for rep in shard.split(','):
            host, port = rep.rsplit(':', 1)
            r = ET.SubElement(sh, 'replica')
            ET.SubElement(r, 'host').text = host
            ET.SubElement(r, 'port').text = port

if zookeeper:
    for el in root.findall('zookeeper'):
        root.remove(el)
    zk = ET.SubElement(root, 'zookeeper')
    host, port = zookeeper.rsplit(':', 1)
    node = ET.SubElement(zk, 'node')
    ET.SubElement(node, 'host').text = host
    ET.SubElement(node, 'port').text = port
    # ClickHouse's defaults are 30 s and 10 s (src/Common/ZooKeeper/ZooKeeper.h)
    ET.SubElement(zk, 'session_timeout_ms').text = '6000'
    ET.SubElement(zk, 'operation_timeout_ms').text = '2000'
    ddl = root.find('distributed_ddl')
    if ddl is None:
        ddl = ET.SubElement(root, 'distributed_ddl')
        ET.SubElement(ddl, 'path').text = '/clickhouse/task_queue/ddl'

ET.indent(tree) if hasattr(ET, 'indent') else None
tree.write(f'{etc}/config.xml', encoding='utf-8', xml_declaration=True)

# ---- users.xml
tree = ET.parse(f'{etc}/users.xml')
root = tree.getroot()
drop_incl(root)
users = root.find('users')
for el in users.findall('tester'):
    users.remove(el)
t = ET.SubElement(users, 'tester')
ET.SubElement(t, 'password').text = 'tester_pw'
nets = ET.SubElement(t, 'networks')
ET.SubElement(nets, 'ip').text = '::/0'
ET.SubElement(nets, 'ip').text = '127.0.0.1'
ET.SubElement(t, 'profile').text = 'default'
ET.SubElement(t, 'quota').text = 'default'
ET.indent(tree) if hasattr(ET, 'indent') else None
tree.write(f'{etc}/users.xml', encoding='utf-8', xml_declaration=True)

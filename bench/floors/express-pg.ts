// Floor (d): a bare Express handler running the same SELECT by id straight on pg.
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get('/samples/:id', async (req, res) => {
  const { rows } = await pool.query('SELECT * FROM records.samples WHERE id = $1', [req.params.id]);
  res.json({ values: rows[0] });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
// Stopped with SIGTERM: exits, so that a CPU profile (REX_CPU_PROFILE_DIR) is written.
process.once('SIGTERM', () => process.exit(0));

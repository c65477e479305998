/** A small two-table shop with a rules document, written to a temp folder and opened as an agent session. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentSession, openAgentSession } from '../../src/core/agent/session';
import { mulberry32 } from '../support/random';

export function writeShopFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-agent-'));
  const random = mulberry32(42);
  const regions = ['North', 'South', 'East', 'West'];
  const segments = ['consumer', 'business'];
  const names = ['Avery', 'Blake', 'Casey', 'Devon', 'Emery', 'Finley', 'Gray', 'Harper', 'Indy', 'Jordan', 'Kai', 'Logan', 'Morgan', 'Noel', 'Oakley', 'Parker', 'Quinn', 'Reese', 'Sage', 'Taylor'];
  const customers = ['customer_id,name,region,segment'];
  names.forEach((name, i) => customers.push(`${i + 1},${name} ${String.fromCharCode(65 + i)}.,${regions[i % 4]},${segments[i % 2]}`));
  const statuses = ['shipped', 'shipped', 'shipped', 'cancelled', 'returned'];
  const orders = ['order_id,customer_id,status,amount,quantity,discount'];
  for (let i = 1; i <= 240; i++) {
    const customer = 1 + Math.floor(random() * names.length);
    const quantity = 1 + Math.floor(random() * 8);
    // Region-dependent price level so group contrasts have a clear winner.
    const regionBoost = [1.0, 1.3, 0.8, 1.1][(customer - 1) % 4];
    const amount = Math.round((quantity * (12 + random() * 30) * regionBoost) * 100) / 100;
    const discount = Math.round((0.02 * quantity + random() * 0.1) * 1000) / 1000;
    orders.push(`${1000 + i},${customer},${statuses[Math.floor(random() * statuses.length)]},${amount},${quantity},${discount}`);
  }
  fs.writeFileSync(path.join(dir, 'customers.csv'), customers.join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'orders.csv'), orders.join('\n') + '\n');
  fs.writeFileSync(
    path.join(dir, 'rules.md'),
    [
      '# Business rules',
      '',
      '## Revenue',
      'Revenue counts shipped orders only. Cancelled and returned orders are excluded from revenue.',
      '',
      '## Large orders',
      'An order is large when its amount is above 200. Large orders get a discount review.',
      '',
      '## Regions',
      'Customers belong to one of four regions: North, South, East and West.',
    ].join('\n'),
  );
  return dir;
}

export async function openShop(): Promise<{ dir: string; session: AgentSession; close(): Promise<void> }> {
  const dir = writeShopFolder();
  const session = await openAgentSession(dir);
  return {
    dir,
    session,
    async close() {
      await session.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

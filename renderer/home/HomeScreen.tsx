import { useEffect } from 'react';
import { useSession } from '../session/sessionStore.js';
import { Link } from '../router/Link.js';
import { useTaskCounts } from '../tasks/taskCountsStore.js';
import { HomeTasks } from './HomeTasks.js';
import { TodayVisits } from './TodayVisits.js';
import { PipelineGlance } from './PipelineGlance.js';
import { RecentActivity } from './RecentActivity.js';
import './home.css';

/** The rep's day at a glance, the screen after sign-in: what is due, where they went, what moved, and the pipeline. */
export function HomeScreen() {
  const me = useSession((s) => s.user);
  useEffect(() => void useTaskCounts.getState().refresh(), []);
  if (!me) return null;
  const today = new Date().toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
  return (
    <section className="screen home-screen">
      <header className="screen-header">
        <div>
          <h1>Today</h1>
          <p className="muted home-date">{today}</p>
        </div>
        <div className="actions">
          <Link to="/tasks" className="button">Tasks</Link>
        </div>
      </header>
      <div className="home-grid">
        <HomeTasks section="today" ownerId={me.id} />
        <HomeTasks section="overdue" ownerId={me.id} />
        <TodayVisits userId={me.id} />
        <PipelineGlance userId={me.id} />
        <RecentActivity userId={me.id} />
      </div>
    </section>
  );
}

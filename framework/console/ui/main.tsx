/**
 * The console page's entry (bundled into app.js and app.css by infra/build/console.mjs): uPlot's
 * stylesheet and ours, and the App rendered into the shell's #app.
 */
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { render } from 'preact';
import { App } from './app.tsx';

const root = document.getElementById('app');
if (root) render(<App />, root);

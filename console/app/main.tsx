import { render } from 'preact';
import { Console } from './console';
import './console.css';

render(<Console />, document.getElementById('console')!);

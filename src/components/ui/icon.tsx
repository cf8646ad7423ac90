import {
  Award,
  BookOpen,
  Bot,
  Briefcase,
  ChartColumn,
  Check,
  Clock,
  Compass,
  FileText,
  GraduationCap,
  Handshake,
  Lightbulb,
  Lock,
  Mail,
  MapPin,
  MessageCircle,
  Phone,
  ShieldCheck,
  Sparkles,
  Target,
  TrendingUp,
  Users,
  Video,
  Calendar,
  type LucideIcon,
} from 'lucide-react';
import type { IconName } from '~/content/types';

const ICONS: Record<IconName, LucideIcon> = {
  'graduation-cap': GraduationCap,
  compass: Compass,
  bot: Bot,
  'shield-check': ShieldCheck,
  target: Target,
  'trending-up': TrendingUp,
  users: Users,
  calendar: Calendar,
  clock: Clock,
  video: Video,
  mail: Mail,
  phone: Phone,
  'map-pin': MapPin,
  'book-open': BookOpen,
  'file-text': FileText,
  'message-circle': MessageCircle,
  handshake: Handshake,
  sparkles: Sparkles,
  lightbulb: Lightbulb,
  award: Award,
  briefcase: Briefcase,
  'bar-chart': ChartColumn,
  lock: Lock,
  check: Check,
};

/** A decorative icon named in content; the text beside it carries the meaning. */
export function Icon({ name, className = 'size-6' }: { name: IconName; className?: string }) {
  const Drawing = ICONS[name];
  return <Drawing aria-hidden="true" focusable="false" className={className} />;
}

/** An icon in a tinted rounded square, used at the top of feature cards. */
export function IconBadge({ name, tone = 'brand' }: { name: IconName; tone?: 'brand' | 'ink' }) {
  return (
    <span
      className={
        'inline-flex size-12 shrink-0 items-center justify-center rounded-xl ' +
        (tone === 'brand' ? 'bg-brand-100 text-brand-800' : 'bg-ink-100 text-ink-800')
      }
    >
      <Icon name={name} />
    </span>
  );
}
